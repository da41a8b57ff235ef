import { operations } from '../../contract/index.js';
import { ReverieError } from '../../platform/errors.js';
import { defineCommand } from '../command.js';
import { openService } from '../context.js';
import { createProgressReporter, info, printJson } from '../output.js';

/** `reverie sessions ingest [--codex DIR] [--claude DIR] [--openclaw DIR]`: agent transcripts into the index. */
export const sessionsCommand = defineCommand({
  name: 'sessions',
  summary: operations['sessions.ingest'].summary,
  usage: [{ line: 'sessions ingest [--codex DIR] [--claude DIR] [--openclaw DIR] [--json]', summary: "With no folder given, every tool's default home that exists." }],
  flags: {
    codex: { type: 'string', value: 'DIR', description: "Codex's home folder (~/.codex, or $CODEX_HOME)" },
    claude: { type: 'string', value: 'DIR', description: "Claude Code's home folder (~/.claude)" },
    openclaw: { type: 'string', value: 'DIR', description: "OpenClaw's home folder (~/.openclaw)" },
  },
  async run(ctx, flags) {
    const [action] = ctx.positionals;
    if (action !== 'ingest') throw new ReverieError('invalid-input', ctx.usage);
    const { codex, claude, openclaw } = flags;
    const service = await openService(ctx);
    const progress = createProgressReporter();
    const unsubscribe = service.onDidEmitEvent((e) => e.type === 'index-progress' && progress.update(e));
    try {
      const report = await service.invoke('sessions.ingest', {
        ...(codex ? { codex } : {}),
        ...(claude ? { claude } : {}),
        ...(openclaw ? { openclaw } : {}),
      });
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
