import { transcriptTools, type IngestReport } from '../../contract/index.js';
import { ReverieError } from '../../platform/errors.js';
import { openService, type CliContext } from '../context.js';
import { createProgressReporter, info, printJson } from '../output.js';

/** `reverie sessions ingest [--codex DIR] [--claude DIR] [--openclaw DIR]`: agent transcripts into the index. */
export async function sessionsCommand(ctx: CliContext): Promise<number> {
  const [action] = ctx.positionals;
  if (action !== 'ingest') throw new ReverieError('invalid-input', 'Usage: reverie sessions ingest [--codex DIR] [--claude DIR] [--openclaw DIR] [--json]');
  const { codex, claude, openclaw } = ctx.options;
  const service = await openService(ctx);
  const progress = createProgressReporter();
  const unsubscribe = service.onDidEmitEvent((e) => e.type === 'index-progress' && progress.update(e));
  try {
    const flags: Record<string, string | undefined> = { codex, claude, openclaw };
    const homes = Object.fromEntries(transcriptTools().flatMap((tool) => (flags[tool.cliFlag] ? [[tool.id, flags[tool.cliFlag]!]] : [])));
    const report = (await service.invoke('sessions.ingest', { homes })) as IngestReport;
    progress.done();
    if (ctx.options.json) printJson(report);
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
}
