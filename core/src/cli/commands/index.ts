import { operations, type SyncReport } from '../../contract/index.js';
import { defineCommand } from '../command.js';
import { openService } from '../context.js';
import { createProgressReporter, info, printJson } from '../output.js';

export const indexCommand = defineCommand({
  name: 'index',
  summary: operations['index.sync'].summary,
  usage: ['index [--force] [--json]'],
  flags: {
    force: { type: 'boolean', description: 're-read every file, changed or not' },
  },
  async run(ctx, flags) {
    const service = await openService(ctx);
    const progress = createProgressReporter();
    const unsubscribe = service.onDidEmitEvent((e) => e.type === 'index-progress' && progress.update(e));
    try {
      const report = await service.invoke('index.sync', { force: flags.force });
      progress.done();
      if (ctx.json) printJson(report);
      else printReport(report);
      return 0;
    } finally {
      unsubscribe();
      await service.close();
    }
  },
});

export function printReport(r: SyncReport): void {
  for (const notice of r.notices) info(`Note: ${notice}`);
  for (const p of r.problems.slice(0, 20)) info(`${p.status}: ${p.path} — ${p.reason}`);
  if (r.problems.length > 20) info(`… and ${r.problems.length - 20} more; see \`reverie status\`.`);
  process.stdout.write(
    `Indexed ${r.files} files (${r.chunks} chunks) in ${(r.durationMs / 1000).toFixed(2)} s: ` +
      `${r.added} added, ${r.updated} updated, ${r.removed} removed, ${r.unchanged} unchanged, ${r.skipped} skipped, ${r.failed} failed.\n`,
  );
}
