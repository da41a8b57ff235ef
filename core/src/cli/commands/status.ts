import { operations } from '../../contract/index.js';
import { defineCommand } from '../command.js';
import { openService } from '../context.js';
import { printJson } from '../output.js';
import { formatStatus } from './statusOutput.js';

export const statusCommand = defineCommand({
  name: 'status',
  summary: operations.status.summary,
  usage: ['status [--json]'],
  flags: {},
  async run(ctx) {
    const service = await openService(ctx);
    try {
      const status = await service.invoke('status', {});
      if (ctx.json) printJson(status);
      else process.stdout.write(formatStatus(status));
      return 0;
    } finally {
      await service.close();
    }
  },
});
