import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { ReverieError } from '../../platform/errors.js';
import { findPackageRoot } from '../../platform/packageRoot.js';
import { defineCommand } from '../command.js';
import { openService } from '../context.js';
import { createProgressReporter, info, printJson } from '../output.js';
import { printReport } from './index.js';
import { processLogger } from '../../platform/log/processLog.js';

const log = processLogger('cli/serve');

/** `reverie serve`: host the workspace and serve the UI on 127.0.0.1 until interrupted. */
export const serveCommand = defineCommand({
  name: 'serve',
  summary: 'The UI in your browser, on 127.0.0.1, hosting the workspace until interrupted.',
  usage: ['serve [--port P] [--open] [--demo] [--json]'],
  flags: {
    port: { type: 'number', value: 'P', integer: true, min: 0, max: 65535, default: 0, description: 'the port to listen on; 0 picks a free one' },
    open: { type: 'boolean', description: 'open the UI in the default browser' },
    demo: { type: 'boolean', description: 'serve a fresh copy of the sample workspace instead of yours' },
  },
  async run(ctx, flags) {
    const { port } = flags;
    const root = findPackageRoot();
    const demoDir = flags.demo ? copyDemoWorkspace(root) : undefined;
    const service = await openService(ctx, demoDir);
    await service.startHosting({ kind: 'serve', url: null }).catch(async (error) => {
      await service.close();
      throw error;
    });
    // Loaded here: the HTTP host brings the MCP SDK and Hono, which no other command needs.
    const { startHttpHost } = await import('../../host/http/httpHost.js');
    const host = await startHttpHost({ service, port, staticDir: path.join(root, 'out', 'renderer') }).catch(async (error) => {
      await service.close();
      throw error;
    });
    service.setHostUrl(host.url);

    const agentSocket = service.agents.socketListening ? service.agents.socketPath : null;
    if (ctx.json) printJson({ url: host.url, launchUrl: host.launchUrl, workspace: service.workspace.root, pid: process.pid, agentSocket });
    else process.stdout.write(`Reverie is serving ${service.workspace.root}${demoDir ? ' (demo copy)' : ''}\nOpen ${host.launchUrl}\n${agentSocket ? `Agents connect to ${agentSocket}\n` : ''}Press Ctrl+C to stop.\n`);
    if (flags.open) openInBrowser(host.launchUrl);

    const progress = createProgressReporter();
    const unsubscribe = service.onDidEmitEvent((e) => e.type === 'index-progress' && progress.update(e));
    service
      .sync(false)
      .then((report) => {
        progress.done();
        unsubscribe();
        if (!ctx.json) printReport(report);
      })
      .catch((error: Error) => info(`Indexing failed: ${error.message}`));

    await new Promise<void>((resolve) => {
      const stop = (): void => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    info('Stopping: finishing the current index transaction…');
    await host.close();
    await service.close();
    return 0;
  },
});

function copyDemoWorkspace(root: string): string {
  const source = path.join(root, 'resources', 'demo-workspace');
  if (!fs.existsSync(source)) throw new ReverieError('not-found', `The demo workspace is missing from ${source}.`);
  const target = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-demo-'));
  fs.cpSync(source, target, { recursive: true });
  return target;
}

function openInBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(command, [url], { stdio: 'ignore', detached: true });
    child.on('error', (error) => {
      log.warn('A browser could not be opened', { command, error });
      info(`Could not open a browser (${command}); open the URL above yourself.`);
    });
    child.unref();
  } catch (error) {
    log.warn('A browser could not be opened', { command, error });
    info('Could not open a browser; open the URL above yourself.');
  }
}
