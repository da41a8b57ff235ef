import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomically } from '../platform/safeWrite.js';
import type { ImportReport, ImportReportItem } from './types.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('importers');

export function importReportsDir(dataDir: string): string {
  return path.join(dataDir, 'imports', 'reports');
}

/** `2026-03-02T14-05-11-482Z`: sortable, and valid as a file name on every platform. */
export function fileTimestamp(date: Date): string {
  return date.toISOString().replace(/[:.]/g, '-');
}

/** Saves the report as JSON and Markdown; returns the paths, or nulls when the disk refuses. */
export function writeImportReport(dataDir: string, report: ImportReport): { reportPath: string | null; markdownPath: string | null } {
  const dir = importReportsDir(dataDir);
  const reportPath = path.join(dir, `${report.id}.json`);
  const markdownPath = path.join(dir, `${report.id}.md`);
  try {
    fs.mkdirSync(dir, { recursive: true });
    writeFileAtomically(reportPath, JSON.stringify({ ...report, reportPath, markdownPath }, null, 2) + '\n');
    writeFileAtomically(markdownPath, renderImportReportMarkdown({ ...report, reportPath, markdownPath }));
    return { reportPath, markdownPath };
  } catch (error) {
    // The import itself is done; the report says it has no saved copy (null paths).
    log.warn('The import report could not be saved', { dir, error });
    return { reportPath: null, markdownPath: null };
  }
}

/** A report id not yet used in the reports folder. */
export function newReportId(dataDir: string, startedAt: Date): string {
  const base = fileTimestamp(startedAt);
  const dir = importReportsDir(dataDir);
  let id = base;
  for (let n = 2; fs.existsSync(path.join(dir, `${id}.json`)); n++) id = `${base}-${n}`;
  return id;
}

export function renderImportReportMarkdown(report: ImportReport): string {
  const lines = [
    `# Import report ${report.id}`,
    '',
    `- Outcome: ${report.outcome}${report.error ? ` — ${report.error}` : ''}`,
    `- Workspace: ${report.workspaceRoot}`,
    `- Started: ${report.startedAt}; finished: ${report.finishedAt}`,
    `- Copied: ${report.copied}; replaced: ${report.replaced}; unchanged: ${report.unchanged}; skipped: ${report.skipped}`,
    `- Backups: ${report.backupDir ?? 'none'}`,
    `- Plan fingerprint: ${report.planFingerprint}`,
  ];
  for (const action of ['copied', 'replaced', 'skipped', 'unchanged'] as const) {
    const items = report.items.filter((i) => i.action === action);
    if (items.length === 0) continue;
    lines.push('', `## ${action[0]!.toUpperCase()}${action.slice(1)} (${items.length})`, '');
    for (const item of items) lines.push(`- ${describeItem(item)}`);
  }
  // Every source file is accounted for: what was not an item (a Hermes lock file, a drift backup) is named here.
  if (report.notes && report.notes.length > 0) lines.push('', `## Notes (${report.notes.length})`, '', ...report.notes.map((n) => `- ${n}`));
  return lines.join('\n') + '\n';
}

function describeItem(item: ImportReportItem): string {
  const target = item.destination ? ` → \`${item.destination}\`` : '';
  const why = item.reason ? ` — ${item.reason}` : '';
  const backup = item.backupPath ? ` (previous version saved to \`${item.backupPath}\`)` : '';
  return `${item.tool} · ${item.collection}: \`${item.sourcePath}\`${target}${why}${backup}`;
}

export interface ImportReportSummary {
  id: string;
  outcome: ImportReport['outcome'];
  error: string | null;
  copied: number;
  skipped: number;
  replaced: number;
  unchanged: number;
  backupDir: string | null;
  startedAt: string;
  finishedAt: string;
  reportPath: string;
  markdownPath: string | null;
}

/** Saved import reports, newest first; unreadable files are left out. */
export function listImportReports(dataDir: string): ImportReportSummary[] {
  const dir = importReportsDir(dataDir);
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch (error) {
    log.debug('No import reports yet', { dir, error });
    return [];
  }
  const summaries: ImportReportSummary[] = [];
  for (const name of names) {
    const reportPath = path.join(dir, name);
    try {
      const r = JSON.parse(fs.readFileSync(reportPath, 'utf8')) as ImportReport;
      const md = reportPath.replace(/\.json$/, '.md');
      summaries.push({
        id: r.id, outcome: r.outcome, error: r.error ?? null, copied: r.copied, skipped: r.skipped, replaced: r.replaced,
        unchanged: r.unchanged, backupDir: r.backupDir ?? null, startedAt: r.startedAt, finishedAt: r.finishedAt,
        reportPath, markdownPath: fs.existsSync(md) ? md : null,
      });
    } catch (error) {
      // A damaged report is not worth failing the list for.
      log.warn('An import report could not be read; left out of the list', { file: name, error });
    }
  }
  return summaries.sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : a.id < b.id ? 1 : -1));
}

/** Reads one saved report in full. */
export function readImportReport(reportPath: string): ImportReport {
  return JSON.parse(fs.readFileSync(reportPath, 'utf8')) as ImportReport;
}
