/**
 * The engine host entry for a separate process: Electron's utilityProcess (desktop app) or a
 * Node child process with an IPC channel. Indexing and search run here, never in the
 * process that paints. Messages: {type:'call', id, name, input} in; {type:'result', id, ok,
 * result|error} and {type:'event', event} out.
 */
import { MemoryService } from '../engine/memoryService.js';
import { toErrorPayload } from '../platform/errors.js';
import { resolveDataDir } from '../workspace/dataDir.js';
import { SettingsStore } from '../workspace/settingsStore.js';
import { openHostWorkspace } from '../workspace/workspaceChoice.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('host');

interface MessagePortLike {
  on(event: 'message', listener: (message: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

type CallMessage = { type: 'call'; id: number; name: string; input: unknown };

function isCallMessage(value: unknown): value is CallMessage {
  const v = value as Partial<CallMessage> | null;
  return typeof v === 'object' && v !== null && v.type === 'call' && typeof v.id === 'number' && typeof v.name === 'string';
}

async function main(): Promise<void> {
  const parentPort = (process as unknown as { parentPort?: MessagePortLike }).parentPort;
  const send = (message: unknown): void => {
    if (parentPort) parentPort.postMessage(message);
    else process.send?.(message);
  };
  const onMessage = (listener: (data: unknown) => void): void => {
    if (parentPort) parentPort.on('message', (m) => listener(m.data));
    else process.on('message', listener);
  };

  const args = new Map<string, string>();
  for (let i = 2; i < process.argv.length - 1; i += 2) args.set(process.argv[i]!, process.argv[i + 1]!);
  const dataDir = resolveDataDir(args.get('--data-dir'));
  const settings = new SettingsStore(dataDir);
  const { workspace, notice } = openHostWorkspace(args.get('--workspace'), settings);

  let restartRequested = false;
  const service = new MemoryService({
    dataDir,
    workspace,
    startupNotices: notice ? [notice] : [],
    // The person chose another workspace: it is saved; the Electron main process starts this engine again on it.
    onDidChooseWorkspace: (root) => {
      restartRequested = true;
      send({ type: 'restart', workspace: root });
      shutdown();
    },
    // From the start: the window shows an older index's migration, which runs while the service opens.
    onEvent: (event) => send({ type: 'event', event }),
  });
  onMessage((data) => {
    if (!isCallMessage(data)) return;
    service.invokeUnchecked(data.name, data.input, { transport: 'ui' }).then(
      (result) => send({ type: 'result', id: data.id, ok: true, result }),
      (error: unknown) => send({ type: 'result', id: data.id, ok: false, error: toErrorPayload(error) }),
    );
  });
  let closing: Promise<void> | null = null;
  function shutdown(): void {
    // Let the reply that asked for a restart leave before the channel closes.
    closing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => service.close()).finally(() => process.exit(0));
  }
  process.on('SIGTERM', shutdown);
  onMessage((data) => (data as { type?: string } | null)?.type === 'shutdown' && shutdown());

  await service.startHosting({ kind: 'desktop', url: null });
  send({ type: 'ready', workspace: workspace.root });
  // index-error tells the window why; the engine log has the details.
  if (!restartRequested) await service.sync(false).catch((error: unknown) => log.debug('The first sync failed', { error }));
}

main().catch((error: unknown) => {
  const payload = toErrorPayload(error);
  const parentPort = (process as unknown as { parentPort?: MessagePortLike }).parentPort;
  const message = { type: 'fatal', error: payload };
  if (parentPort) parentPort.postMessage(message);
  else process.send?.(message);
  process.exitCode = 1;
});
