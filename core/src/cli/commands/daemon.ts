import { defineCommand } from '../command.js';
import { openService } from '../context.js';
import { createProgressReporter, info, printJson } from '../output.js';

/**
 * `reverie daemon`: a headless host in the foreground — the workspace lock, the watcher, the
 * dreaming schedule and the agent socket, without a UI. Stops on Ctrl+C / SIGTERM.
 */
export const daemonCommand = defineCommand({
  name: 'daemon',
  summary: 'A headless host in the foreground: the watcher, the dreaming schedule and the agent socket, no UI.',
  usage: ['daemon [--json]'],
  flags: {},
  async run(ctx) {
    // Listen before anything can report the daemon as ready: a stop that arrives right after the
    // ready line must still close the socket and the index, not kill the process mid-way.
    const stopRequested = new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
    const service = await openService(ctx);
    await service.startHosting({ kind: 'daemon', url: null }).catch(async (error) => {
      await service.close();
      throw error;
    });
    const socket = service.agents.socketListening ? service.agents.socketPath : null;
    const { notices } = service.status();
    if (ctx.json) printJson({ workspace: service.workspace.root, pid: process.pid, agentSocket: socket, notices });
    else {
      process.stdout.write(`Reverie daemon for ${service.workspace.root} (pid ${process.pid})\n`);
      process.stdout.write(socket ? `Agent socket: ${socket}\n` : `No agent socket: ${notices.at(-1) ?? 'it could not start'}\n`);
      process.stdout.write('Press Ctrl+C to stop.\n');
    }
    const progress = createProgressReporter();
    const unsubscribe = service.onDidEmitEvent((e) => e.type === 'index-progress' && progress.update(e));
    service
      .sync(false)
      .then(() => {
        progress.done();
        unsubscribe();
      })
      .catch((error: Error) => info(`Indexing failed: ${error.message}`));
    await stopRequested;
    info('Stopping: closing the agent socket and the index…');
    await service.close();
    return 0;
  },
});
