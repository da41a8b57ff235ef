import fs from 'node:fs';
import { ImportPlan, ImportTool } from '../../contract/index.js';
import { describeIssues } from '../../engine/invoke.js';
import { ReverieError } from '../../platform/errors.js';
import { openService, type CliContext } from '../context.js';
import { info, printJson } from '../output.js';

const USAGE = 'Usage: reverie import detect|plan|apply [--source codex|claude-code|hermes] [--from HOME] [--plan FILE] [--replace] [--json]';

/** `reverie import …`: copy the memory coding agents already wrote into memory/imports/. */
export async function importCommand(ctx: CliContext): Promise<number> {
  const [action] = ctx.positionals;
  if (action !== 'detect' && action !== 'plan' && action !== 'apply') throw new ReverieError('invalid-input', USAGE);
  const sources = sourcesFrom(ctx);
  const service = await openService(ctx);
  const unsubscribe = service.onDidEmitEvent((e) => {
    if (e.type === 'import-progress' && !ctx.options.json && e.phase !== 'done' && e.total > 0 && e.done === e.total) info(`${e.phase}: ${e.done}/${e.total}`);
  });
  try {
    if (action === 'detect') {
      const { sources: found } = await service.invoke('import.detect', { ...(sources ? { sources } : {}) });
      if (ctx.options.json) printJson(found);
      else {
        for (const s of found) {
          const files = s.collections.reduce((n, c) => n + c.files.length, 0);
          process.stdout.write(`${s.tool.padEnd(12)} ${s.exists ? `${files} files in ${s.collections.length} collection(s)` : 'not found'}  ${s.home}\n`);
          for (const note of s.notes) process.stdout.write(`    ${note}\n`);
        }
      }
      return 0;
    }
    if (action === 'plan') {
      const plan = await service.invoke('import.plan', { ...(sources ? { sources } : {}) });
      if (ctx.options.json) printJson(plan);
      else {
        for (const item of plan.items) process.stdout.write(`${item.status.padEnd(9)} ${item.destination ?? item.sourcePath}${item.reason ? `  (${item.reason})` : ''}\n`);
        process.stdout.write(`\n${plan.items.length} items · fingerprint ${plan.fingerprint.slice(0, 16)} · save it with --json > plan.json and apply with --plan plan.json\n`);
      }
      return 0;
    }
    const plan = ctx.options.plan ? readPlan(ctx.options.plan) : undefined;
    const report = await service.invoke('import.apply', { ...(plan ? { plan } : {}), ...(sources && !plan ? { sources } : {}), replace: ctx.options.replace });
    if (ctx.options.json) printJson({ copied: report.copied, skipped: report.skipped, replaced: report.replaced, unchanged: report.unchanged, outcome: report.outcome, error: report.error, report: report.reportPath });
    else {
      for (const item of report.items.filter((i) => i.action === 'skipped').slice(0, 30)) info(`skipped: ${item.sourcePath} — ${item.reason ?? ''}`);
      process.stdout.write(`${report.outcome === 'failed' ? `Import failed: ${report.error}. Nothing was half-copied.\n` : ''}Copied ${report.copied}, replaced ${report.replaced}, unchanged ${report.unchanged}, skipped ${report.skipped}. Report: ${report.markdownPath ?? report.reportPath}\n`);
    }
    return report.outcome === 'failed' ? 2 : 0;
  } finally {
    unsubscribe();
    await service.close();
  }
}

function sourcesFrom(ctx: CliContext): Array<{ tool: ImportTool; home?: string }> | undefined {
  const { source, from } = ctx.options;
  if (!source || source.length === 0) {
    if (from) throw new ReverieError('invalid-input', '--from needs --source to say which tool the folder belongs to.');
    return undefined;
  }
  return source.flatMap((s) => s.split(',')).map((s) => {
    const tool = ImportTool.safeParse(s.trim());
    if (!tool.success) throw new ReverieError('invalid-input', `--source "${s}" is not one of codex, claude-code, hermes.`);
    return { tool: tool.data, ...(from ? { home: from } : {}) };
  });
}

function readPlan(file: string): ImportPlan {
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ReverieError('invalid-input', `Cannot read the plan ${file}: ${(error as Error).message}. Make one with \`reverie import plan --json > ${file}\`.`);
  }
  const parsed = ImportPlan.safeParse(json);
  if (!parsed.success) throw new ReverieError('invalid-input', `${file} is not an import plan: ${describeIssues('plan', parsed.error)}`);
  return parsed.data;
}
