import fs from 'node:fs';
import path from 'node:path';
import { ReverieError, errnoCode } from '../platform/errors.js';
import { sha256Hex } from '../platform/hash.js';
import { writeFileAtomically, writeNewFileSynced } from '../platform/safeWrite.js';
import { backUpFile, importBackupDir, writeBackupManifest, type BackedUpFile } from './importBackup.js';
import { removeStaleStagingFolders, stagingDirFor } from './stagingFolders.js';
import { destinationProblem, symlinkedFolderOnPath } from './importPaths.js';
import { destinationStatus, planImport, yieldToEventLoop } from './plan.js';
import { readSourceFile } from './readSource.js';
import { newReportId, writeImportReport } from './report.js';
import type { ImportPlan, ImportPlanItem, ImportProgress, ImportReport, ImportReportItem } from './types.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('importers');

export interface ApplyImportOptions {
  workspaceRoot: string;
  dataDir: string;
  /** Overwrite destinations that differ, after backing them up. */
  replace?: boolean;
  onProgress?: (progress: ImportProgress) => void;
  /** Re-plan and refuse the plan when the disk no longer matches it (default true). */
  verifyFingerprint?: boolean;
  /** Destinations the person unticked in the preview. */
  exclude?: readonly string[];
  now?: () => Date;
  /** Writes one staged file; the seam tests use to simulate a full disk. */
  writeStagedFile?: (absPath: string, bytes: Uint8Array) => void;
}

interface StagedCopy {
  item: ImportPlanItem;
  stagedPath: string;
  replaces: boolean;
}

/**
 * Copies a plan's files into the workspace: every byte goes to a staging folder first, and
 * only when all of them are written (and replaced files are backed up) are they renamed into
 * place. A failure leaves the workspace as it was and is described in the report.
 */
export async function applyImport(plan: ImportPlan, options: ApplyImportOptions): Promise<ImportReport> {
  const now = options.now ?? (() => new Date());
  const started = now();
  const root = path.resolve(options.workspaceRoot);
  const { replace = false, onProgress, verifyFingerprint = true } = options;
  if (path.resolve(plan.workspaceRoot) !== root)
    throw new ReverieError('invalid-input', `This plan was made for the workspace ${plan.workspaceRoot}, not ${root}; make a new plan.`);

  let items = plan.items;
  if (verifyFingerprint) {
    onProgress?.({ phase: 'checking', done: 0, total: plan.items.length, path: null });
    const fresh = await planImport({ workspaceRoot: root, sources: plan.sources, ...plan.options });
    if (fresh.fingerprint !== plan.fingerprint) {
      throw new ReverieError('conflict', `The import sources or destinations changed since this plan was made (${describeDifference(plan.items, fresh.items)}); make a new plan and review it.`);
    }
    items = fresh.items;
  }

  const id = newReportId(options.dataDir, started);
  const excluded = new Set(options.exclude ?? []);
  const results = new Map<ImportPlanItem, ImportReportItem>();
  const record = (item: ImportPlanItem, action: ImportReportItem['action'], reason: string | null, backupPath: string | null = null): void => {
    results.set(item, { tool: item.tool, collection: item.collection, sourcePath: item.sourcePath, destination: item.destination, sha256: item.sha256, action, reason, backupPath });
  };

  const candidates: ImportPlanItem[] = [];
  for (const item of items) {
    const problem = item.destination === null ? null : (destinationProblem(item.destination) ?? symlinkedFolderOnPath(root, item.destination));
    if (item.destination && excluded.has(item.destination)) record(item, 'skipped', 'excluded from this import');
    else if (item.status === 'skipped' || item.destination === null) record(item, 'skipped', item.reason ?? 'skipped');
    else if (problem) record(item, 'skipped', `rejected: ${problem}`);
    else if (item.status === 'unchanged') record(item, 'unchanged', item.reason);
    else if (item.status === 'conflict' && !replace) record(item, 'skipped', 'destination exists with different content; choose "replace existing imports" to overwrite it');
    else candidates.push(item);
  }

  removeStaleStagingFolders(root, started);
  const stagingDir = stagingDirFor(root, id);
  const backupDir = importBackupDir(options.dataDir, id);
  const backups: BackedUpFile[] = [];
  const committed: StagedCopy[] = [];
  let failure: string | null = null;
  try {
    const staged = await stageCopies(root, stagingDir, candidates, replace, options, record);
    for (const [i, copy] of staged.filter((c) => c.replaces).entries()) {
      onProgress?.({ phase: 'backup', done: i, total: staged.length, path: copy.item.destination });
      backups.push(backUpFile(root, backupDir, copy.item.destination!));
    }
    if (backups.length > 0) writeBackupManifest(backupDir, backups);
    const commitStep = progressStep(staged.length);
    for (const [i, copy] of staged.entries()) {
      const dest = path.join(root, ...copy.item.destination!.split('/'));
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.renameSync(copy.stagedPath, dest);
      committed.push(copy);
      if ((i + 1) % commitStep === 0 || i + 1 === staged.length) onProgress?.({ phase: 'commit', done: i + 1, total: staged.length, path: copy.item.destination });
    }
    for (const copy of staged) {
      const backup = backups.find((b) => b.destination === copy.item.destination);
      record(copy.item, copy.replaces ? 'replaced' : 'copied', copy.replaces ? 'replaced after backing up the existing file' : null, backup?.backupPath ?? null);
    }
  } catch (error) {
    failure = describeFailure(error);
    rollBack(root, committed, backups);
    if (committed.length === 0) fs.rmSync(backupDir, { recursive: true, force: true });
    for (const item of candidates) if (!results.has(item)) record(item, 'skipped', `not imported: ${failure}`);
  } finally {
    fs.rmSync(stagingDir, { recursive: true, force: true });
  }

  const reportItems = items.map((item) => results.get(item)!);
  const count = (action: ImportReportItem['action']): number => reportItems.filter((i) => i.action === action).length;
  const report: ImportReport = {
    id,
    outcome: failure ? 'failed' : 'completed',
    error: failure,
    workspaceRoot: root,
    planFingerprint: plan.fingerprint,
    copied: count('copied'),
    skipped: count('skipped'),
    replaced: count('replaced'),
    unchanged: count('unchanged'),
    items: reportItems,
    backupDir: backups.length > 0 && committed.length > 0 ? backupDir : null,
    notes: plan.notes,
    startedAt: started.toISOString(),
    finishedAt: now().toISOString(),
    reportPath: null,
    markdownPath: null,
  };
  onProgress?.({ phase: 'done', done: items.length, total: items.length, path: null });
  return { ...report, ...writeImportReport(options.dataDir, report) };
}

/** Reads each source again, checks it is the planned content, and writes it into staging. */
async function stageCopies(
  root: string,
  stagingDir: string,
  candidates: readonly ImportPlanItem[],
  replace: boolean,
  options: ApplyImportOptions,
  record: (item: ImportPlanItem, action: ImportReportItem['action'], reason: string | null) => void,
): Promise<StagedCopy[]> {
  const write = options.writeStagedFile ?? writeNewFileSynced;
  const staged: StagedCopy[] = [];
  if (candidates.length > 0) fs.mkdirSync(stagingDir, { recursive: true });
  const step = progressStep(candidates.length);
  for (const [i, item] of candidates.entries()) {
    if (i % step === 0) {
      options.onProgress?.({ phase: 'staging', done: i, total: candidates.length, path: item.destination });
      await yieldToEventLoop();
    }
    const read = readSourceFile(item.sourcePath, Number.MAX_SAFE_INTEGER);
    if (read.kind === 'skipped') {
      record(item, 'skipped', read.reason);
      continue;
    }
    // The bytes we copy must be the bytes that were planned (and previewed).
    if (sha256Hex(read.bytes) !== item.sha256) {
      record(item, 'skipped', 'the source changed since the plan was made; plan again to import it');
      continue;
    }
    const now = destinationStatus(root, item.destination!, read.bytes);
    if (now.status === 'unchanged') {
      record(item, 'unchanged', now.reason);
      continue;
    }
    if (now.status === 'skipped' || (now.status === 'conflict' && !replace)) {
      record(item, 'skipped', now.status === 'conflict' ? 'destination appeared with different content since the plan was made' : now.reason);
      continue;
    }
    const stagedPath = path.join(stagingDir, `${staged.length}.md`);
    write(stagedPath, read.bytes);
    staged.push({ item, stagedPath, replaces: now.status === 'conflict' });
  }
  return staged;
}

/** Undoes a commit that failed half-way: new files go, replaced files get their backup back. */
function rollBack(root: string, committed: readonly StagedCopy[], backups: readonly BackedUpFile[]): void {
  for (const copy of committed) {
    const dest = path.join(root, ...copy.item.destination!.split('/'));
    const backup = backups.find((b) => b.destination === copy.item.destination);
    try {
      if (backup) writeFileAtomically(dest, fs.readFileSync(backup.backupPath));
      else fs.rmSync(dest, { force: true });
    } catch (error) {
      // Best effort: the backup stays in the data folder.
      log.error('An import could not be undone for one file; its backup stays in the data folder', { destination: copy.item.destination, backup: backup?.backupPath ?? null, error });
    }
  }
}

function describeFailure(error: unknown): string {
  const code = errnoCode(error);
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ENOSPC') return 'the disk is full (ENOSPC); nothing was imported';
  if (code === 'EDQUOT') return 'the disk quota is exhausted (EDQUOT); nothing was imported';
  return `${message}; nothing was imported`;
}

function describeDifference(planned: readonly ImportPlanItem[], fresh: readonly ImportPlanItem[]): string {
  const key = (i: ImportPlanItem): string => `${i.sourcePath}\u0000${i.size}\u0000${i.sha256}\u0000${i.destination}`;
  const freshKeys = new Set(fresh.map(key));
  const plannedKeys = new Set(planned.map(key));
  const changed = planned.filter((i) => !freshKeys.has(key(i))).map((i) => i.sourcePath);
  const added = fresh.filter((i) => !plannedKeys.has(key(i)) && !changed.includes(i.sourcePath)).map((i) => i.sourcePath);
  const parts = [...changed.slice(0, 3).map((p) => `changed or gone: ${p}`), ...added.slice(0, 3).map((p) => `new: ${p}`)];
  const more = changed.length + added.length - parts.length;
  return parts.join('; ') + (more > 0 ? `; and ${more} more` : '') || 'the item order changed';
}


/** About a hundred progress events per phase, however many files: small imports move too. */
function progressStep(total: number): number {
  return Math.max(1, Math.ceil(total / 100));
}
