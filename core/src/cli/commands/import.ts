import fs from 'node:fs';
import { ImportPlan, ImportTool, operations } from '../../contract/index.js';
import { describeIssues } from '../../engine/invoke.js';
import { ReverieError } from '../../platform/errors.js';
import { defineCommand } from '../command.js';
import { openService } from '../context.js';
import { info, printJson } from '../output.js';

/** `reverie import …`: copy the memory coding agents already wrote into memory/imports/. */
export const importCommand = defineCommand({
  name: 'import',
  summary: 'Copy the memory coding agents already wrote into memory/imports/.',
  usage: [
    { line: 'import detect [--source TOOL] [--from HOME | --codex DIR --claude DIR --hermes DIR] [--json]', summary: operations['import.detect'].summary },
    { line: 'import plan [--source TOOL] [--from HOME | --codex DIR --claude DIR --hermes DIR] [--json]', summary: operations['import.plan'].summary },
    { line: 'import apply [--source TOOL] [--from HOME | --codex DIR --claude DIR --hermes DIR] [--plan FILE] [--replace] [--json]', summary: operations['import.apply'].summary },
  ],
  flags: {
    source: { type: 'multiple', value: 'TOOL', description: `which tools: ${ImportTool.options.join(', ')}; default all` },
    from: { type: 'string', value: 'HOME', description: "the tool's home folder, when it is not the default (needs --source)" },
    // The same spelling as `sessions ingest --claude DIR`: each names one tool and its home.
    codex: { type: 'string', value: 'DIR', description: 'import from this Codex home (same as --source codex --from DIR)' },
    claude: { type: 'string', value: 'DIR', description: 'import from this Claude Code home (same as --source claude-code --from DIR)' },
    hermes: { type: 'string', value: 'DIR', description: 'import from this Hermes home (same as --source hermes --from DIR)' },
    plan: { type: 'string', value: 'FILE', description: 'import apply: a plan saved with `reverie import plan --json > FILE`' },
    replace: { type: 'boolean', description: 'import apply: replace conflicting files (backed up first) instead of skipping them' },
  },
  async run(ctx, flags) {
    const [action] = ctx.positionals;
    if (action !== 'detect' && action !== 'plan' && action !== 'apply') throw new ReverieError('invalid-input', ctx.usage);
    const homes = { codex: flags.codex, 'claude-code': flags.claude, hermes: flags.hermes };
    const sources = sourcesFrom(flags.source, flags.from, homes);
    const service = await openService(ctx);
    const unsubscribe = service.onDidEmitEvent((e) => {
      if (e.type === 'import-progress' && !ctx.json && e.phase !== 'done' && e.total > 0 && e.done === e.total) info(`${e.phase}: ${e.done}/${e.total}`);
    });
    try {
      if (action === 'detect') {
        const { sources: found } = await service.invoke('import.detect', { ...(sources ? { sources } : {}) });
        if (ctx.json) printJson(found);
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
        if (ctx.json) printJson(plan);
        else {
          for (const item of plan.items) process.stdout.write(`${item.status.padEnd(9)} ${item.destination ?? item.sourcePath}${item.reason ? `  (${item.reason})` : ''}\n`);
          for (const note of plan.notes) process.stdout.write(`note      ${note}\n`);
          process.stdout.write(`\n${plan.items.length} items · fingerprint ${plan.fingerprint.slice(0, 16)} · save it with --json > plan.json and apply with --plan plan.json\n`);
        }
        return 0;
      }
      const plan = flags.plan ? readPlan(flags.plan) : undefined;
      const report = await service.invoke('import.apply', { ...(plan ? { plan } : {}), ...(sources && !plan ? { sources } : {}), replace: flags.replace });
      if (ctx.json) printJson({ copied: report.copied, skipped: report.skipped, replaced: report.replaced, unchanged: report.unchanged, outcome: report.outcome, error: report.error, report: report.reportPath });
      else {
        for (const item of report.items.filter((i) => i.action === 'skipped').slice(0, 30)) info(`skipped: ${item.sourcePath} — ${item.reason ?? ''}`);
        process.stdout.write(`${report.outcome === 'failed' ? `Import failed: ${report.error}. Nothing was half-copied.\n` : ''}Copied ${report.copied}, replaced ${report.replaced}, unchanged ${report.unchanged}, skipped ${report.skipped}. Report: ${report.markdownPath ?? report.reportPath}\n`);
      }
      return report.outcome === 'failed' ? 2 : 0;
    } finally {
      unsubscribe();
      await service.close();
    }
  },
});

function sourcesFrom(source: readonly string[], from: string | undefined, homes: Record<ImportTool, string | undefined>): Array<{ tool: ImportTool; home?: string }> | undefined {
  const named = ImportTool.options.flatMap((tool) => (homes[tool] ? [{ tool, home: homes[tool] }] : []));
  if (source.length === 0) {
    if (from) throw new ReverieError('invalid-input', '--from needs --source to say which tool the folder belongs to (or use --codex, --claude or --hermes DIR).');
    return named.length > 0 ? named : undefined;
  }
  const listed = source.map((s) => {
    const tool = ImportTool.safeParse(s);
    if (!tool.success) throw new ReverieError('invalid-input', `--source "${s}" is not one of codex, claude-code, hermes.`);
    return { tool: tool.data, ...(from ? { home: from } : {}) };
  });
  return [...listed.filter((l) => !homes[l.tool]), ...named];
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
