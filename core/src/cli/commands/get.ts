import { operations } from '../../contract/index.js';
import { ReverieError } from '../../platform/errors.js';
import { defineCommand } from '../command.js';
import { openService } from '../context.js';
import { printJson } from '../output.js';
import { formatMemoryLines } from './getOutput.js';

/** `reverie get <path>`: lines of one memory file, as agents read them (`memory.get`). */
export const getCommand = defineCommand({
  name: 'get',
  summary: operations['memory.get'].summary,
  usage: ['get <path> [--from N] [--lines N] [--json]'],
  flags: {
    from: { type: 'number', integer: true, min: 1, default: 1, description: 'first line (1-based)' },
    lines: { type: 'number', integer: true, min: 1, max: 2000, default: 200, description: 'how many lines' },
  },
  async run(ctx, flags) {
    const target = ctx.positionals.join(' ').trim();
    if (!target) throw new ReverieError('invalid-input', `Say which file. ${ctx.usage}`);
    const service = await openService(ctx);
    try {
      const got = await service.invoke('memory.get', { path: target, from: flags.from, lines: flags.lines });
      if (ctx.json) printJson(got);
      else process.stdout.write(formatMemoryLines(got));
      return 0;
    } finally {
      await service.close();
    }
  },
});
