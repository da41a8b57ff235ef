import { operations, transcriptTools, type AgentToolSpec } from '../../contract/index.js';
import { ReverieError } from '../../platform/errors.js';
import { defineCommand } from '../command.js';
import { openService } from '../context.js';
import { createProgressReporter, info, printJson } from '../output.js';

/** Where a tool's home is when no flag names it, for help. */
function describeHome(tool: AgentToolSpec): string {
  return `${tool.label}'s home folder (~/${tool.home.default}${tool.home.env ? `, or $${tool.home.env}` : ''})`;
}

/** One `--<flag> DIR` per tool whose transcripts Reverie reads (the agent-tool registry). */
const homeFlags = Object.fromEntries(transcriptTools().map((tool) => [tool.cliFlag, { type: 'string' as const, value: 'DIR', description: describeHome(tool) }]));

/** `reverie sessions ingest [--codex DIR] [--claude DIR] …`: agent transcripts into the index. */
export const sessionsCommand = defineCommand({
  name: 'sessions',
  summary: operations['sessions.ingest'].summary,
  usage: [
    {
      line: `sessions ingest ${transcriptTools().map((tool) => `[--${tool.cliFlag} DIR]`).join(' ')} [--json]`,
      summary: "With no folder given, every tool's default home that exists.",
    },
  ],
  flags: homeFlags,
  async run(ctx, flags) {
    const [action] = ctx.positionals;
    if (action !== 'ingest') throw new ReverieError('invalid-input', ctx.usage);
    const homes = Object.fromEntries(transcriptTools().flatMap((tool) => (flags[tool.cliFlag] ? [[tool.id, flags[tool.cliFlag]!]] : [])));
    const service = await openService(ctx);
    const progress = createProgressReporter();
    const unsubscribe = service.onDidEmitEvent((e) => e.type === 'index-progress' && progress.update(e));
    try {
      const report = await service.invoke('sessions.ingest', { homes });
      progress.done();
      if (ctx.json) printJson(report);
      else {
        for (const p of report.problems.slice(0, 20)) info(`${p.status}: ${p.path} — ${p.reason}`);
        process.stdout.write(
          `Transcripts: ${report.transcripts} (${report.added} new, ${report.appended} grew, ${report.unchanged} unchanged, ${report.removed} removed, ` +
            `${report.skipped} skipped, ${report.failed} failed) · ${report.messages} messages in ${(report.durationMs / 1000).toFixed(2)} s · ` +
            `${report.redactions} secrets redacted · ${report.recalledStripped} recalled passages left out · ` +
            `${report.unknownLines} unknown and ${report.malformedLines} malformed lines skipped.\n`,
        );
      }
      return 0;
    } finally {
      unsubscribe();
      await service.close();
    }
  },
});
