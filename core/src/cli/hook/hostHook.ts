import type { Intent, MatchedEntry, OperationOutput } from '../../contract/index.js';
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
    const auth = checked('auth', await client.call('auth', { token }, left()), isAuthReply);
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

  async bootstrap(budget: number, project: string | null, timeoutMs: number): Promise<Pick<OperationOutput<'context.bootstrap'>, 'text'>> {
    return checked('context.bootstrap', await this.client.call('context.bootstrap', { budget, ...(project ? { project } : {}) }, timeoutMs), isBootstrapReply);
  }

  async armedIntents(timeoutMs: number): Promise<IntentLines[]> {
    const { intents } = checked('intents.list', await this.client.call('intents.list', {}, timeoutMs), isIntentsReply);
    return intents.filter((i) => i.status === 'armed');
  }

  async match(message: string, project: string | null, timeoutMs: number): Promise<MatchLines> {
    return checked('context.match', await this.client.call('context.match', { message, ...(project ? { project } : {}) }, timeoutMs), isMatchReply);
  }

  /** New transcript lines of every tool's default home, ingested by the host (it goes on if this process leaves). */
  ingest(timeoutMs: number): Promise<unknown> {
    return this.client.call('sessions.ingest', {}, timeoutMs);
  }

  close(): void {
    this.client.close();
  }
}

/*
 * The host's answers are checked for every field the hook prints: the contract's zod tree is not
 * loaded here (it is most of the engine's start), and a host of another Reverie version or a broken
 * one must end in the log, never in the agent's context.
 */

/** What the hook reads of an intent. */
export type IntentLines = Pick<Intent, 'description' | 'keywords' | 'status'>;
/** What the hook reads of context.match's answer. */
export interface MatchLines {
  entries: Array<Pick<MatchedEntry, 'path' | 'line' | 'text'>>;
  intents: IntentLines[];
}

function checked<T>(method: string, reply: unknown, isValid: (value: unknown) => value is T): T {
  if (!isValid(reply)) throw new Error(`the host's answer to ${method} is not in the form this hook reads (is the host another version of Reverie?)`);
  return reply;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

function isAuthReply(value: unknown): value is { agent: string; scopes: string[]; workspace?: string } {
  return isRecord(value) && typeof value.agent === 'string' && isStrings(value.scopes) && (value.workspace === undefined || typeof value.workspace === 'string');
}

function isBootstrapReply(value: unknown): value is { text: string } {
  return isRecord(value) && typeof value.text === 'string';
}

function isIntent(value: unknown): value is IntentLines {
  return isRecord(value) && typeof value.description === 'string' && isStrings(value.keywords) && typeof value.status === 'string';
}

function isIntentsReply(value: unknown): value is { intents: IntentLines[] } {
  return isRecord(value) && Array.isArray(value.intents) && value.intents.every(isIntent);
}

function isMatchReply(value: unknown): value is MatchLines {
  const isEntry = (e: unknown) => isRecord(e) && typeof e.path === 'string' && Number.isInteger(e.line) && typeof e.text === 'string';
  return isRecord(value) && Array.isArray(value.entries) && value.entries.every(isEntry) && Array.isArray(value.intents) && value.intents.every(isIntent);
}
