import type { Intent, OperationOutput } from '../../contract/index.js';
import { AgentSocketClient } from '../../agents/socket/agentSocketClient.js';
import { agentSocketPath } from '../../agents/socket/socketPath.js';
import { processLogger } from '../../platform/log/processLog.js';

const log = processLogger('cli/hook');

/** The host's agent socket, asked as any agent asks it: null when no host serves this workspace. */
export async function connectToHost(dataDir: string, workspaceRoot: string, token: string, connectMs: number, left: () => number): Promise<HostSession | null> {
  let client: AgentSocketClient;
  try {
    client = await AgentSocketClient.connect(agentSocketPath(dataDir), connectMs);
  } catch (error) {
    log.debug('nothing listens: no host runs', { error });
    return null;
  }
  try {
    const auth = await client.call<{ agent: string; scopes: string[]; workspace?: string }>('auth', { token }, left());
    // The data folder's socket may serve another workspace.
    if (auth.workspace !== undefined && auth.workspace !== workspaceRoot) {
      client.close();
      return null;
    }
    return new HostSession(client, auth.scopes.includes('write'));
  } catch (error) {
    client.close();
    throw error;
  }
}

export class HostSession {
  constructor(
    private readonly client: AgentSocketClient,
    readonly canWrite: boolean,
  ) {}

  bootstrap(budget: number, project: string | null, timeoutMs: number): Promise<OperationOutput<'context.bootstrap'>> {
    return this.client.call('context.bootstrap', { budget, ...(project ? { project } : {}) }, timeoutMs);
  }

  async armedIntents(timeoutMs: number): Promise<Intent[]> {
    const { intents } = await this.client.call<OperationOutput<'intents.list'>>('intents.list', {}, timeoutMs);
    return intents.filter((i) => i.status === 'armed');
  }

  match(message: string, project: string | null, timeoutMs: number): Promise<OperationOutput<'context.match'>> {
    return this.client.call('context.match', { message, ...(project ? { project } : {}) }, timeoutMs);
  }

  /** New transcript lines of every tool's default home, ingested by the host (it goes on if this process leaves). */
  ingest(timeoutMs: number): Promise<unknown> {
    return this.client.call('sessions.ingest', {}, timeoutMs);
  }

  close(): void {
    this.client.close();
  }
}
