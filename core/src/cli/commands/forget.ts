import { operations } from '../../contract/index.js';
import { ReverieError } from '../../platform/errors.js';
import { defineCommand } from '../command.js';
import { openService } from '../context.js';
import { printJson } from '../output.js';

/** `reverie forget --session <id> | --path <p> [--dry-run]`: out of the index, and kept out. */
export const forgetCommand = defineCommand({
  name: 'forget',
  summary: operations.forget.summary,
  usage: ['forget --session <id> | --path <path> [--dry-run] [--json]'],
  flags: {
    session: { type: 'string', value: 'ID', description: 'the transcript session to forget' },
    path: { type: 'string', value: 'PATH', description: 'the workspace path to forget' },
    dryRun: { type: 'boolean', description: 'show what would be removed; change nothing' },
  },
  async run(ctx, flags) {
    const { session, path } = flags;
    if ((session === undefined) === (path === undefined)) throw new ReverieError('invalid-input', ctx.usage);
    const service = await openService(ctx);
    try {
      const report = await service.invoke('forget', { ...(session ? { session } : { path }), dryRun: flags.dryRun });
      if (ctx.json) printJson(report);
      else {
        const verb = report.dryRun ? 'Would remove' : 'Removed';
        process.stdout.write(`${verb} ${report.removed.chunks} chunks and ${report.removed.vectors} vectors from ${report.removed.files.length} indexed source(s):\n`);
        for (const f of report.removed.files) process.stdout.write(`  ${f}\n`);
        if (!report.dryRun) process.stdout.write(`Tombstone recorded (${report.tombstone.kind} ${report.tombstone.key}): it will not be indexed again.\n`);
        if (report.stillInWorkspace.length > 0) {
          process.stdout.write('Your Markdown was not changed. These files still contain the text:\n');
          for (const f of report.stillInWorkspace) process.stdout.write(`  ${f.path} (lines ${f.lines.slice(0, 12).join(', ')}${f.lines.length > 12 ? ', …' : ''})\n`);
        }
      }
      return 0;
    } finally {
      await service.close();
    }
  },
});
