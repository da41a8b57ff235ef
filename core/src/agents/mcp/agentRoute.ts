import { HostLock } from '../../workspace/hostLock.js';
import { agentSocketPath } from '../socket/socketPath.js';
import { RouteLostError, type AgentCaller, type CallerIdentity } from './agentCaller.js';
import { InProcessAgentCaller, type AgentEngine } from './inProcessAgentCaller.js';
import { SocketAgentCaller } from './socketAgentCaller.js';
import { processLogger } from '../../platform/log/processLog.js';

const log = processLogger('agents/mcp');

export interface RouteTarget {
  dataDir: string;
  workspaceId: string;
  workspaceRoot: string;
  /** Opens the workspace in this process (only when no host answers). */
  openService(): Promise<AgentEngine>;
  /** One line for the person (stderr): which route calls take. */
  note(message: string): void;
}

/** A host owns the workspace and its agent socket answers: forward; otherwise open the workspace here. */
export async function openAgentCaller(target: RouteTarget, token: string): Promise<AgentCaller> {
  const forwarded = hostRuns(target) ? await SocketAgentCaller.connect(agentSocketPath(target.dataDir), token, target.workspaceRoot) : null;
  if (forwarded) return forwarded;
  return InProcessAgentCaller.open(await target.openService(), token);
}

function hostRuns(target: RouteTarget): boolean {
  return HostLock.forWorkspace(target.workspaceRoot, target.dataDir, target.workspaceId).readHolder() !== null;
}

/**
 * The route `reverie mcp` calls through, kept right for a long session: a host that starts
 * later is used from the next call on, and a host that stops hands over to this process.
 * Calls run one at a time so a switch never closes a route under a running call.
 */
export class AgentRoute implements AgentCaller {
  private queue: Promise<unknown> = Promise.resolve();
  /** The last route failed and no new one could be opened yet: retry on the next call. */
  private lost = false;

  private constructor(
    private readonly target: RouteTarget,
    private readonly token: string,
    private current: AgentCaller,
  ) {}

  static async open(target: RouteTarget, token: string): Promise<AgentRoute> {
    const route = new AgentRoute(target, token, await openAgentCaller(target, token));
    target.note(route.describe());
    return route;
  }

  get route(): AgentCaller['route'] {
    return this.current.route;
  }

  get identity(): CallerIdentity {
    return this.current.identity;
  }

  call(method: string, params: Record<string, unknown>): Promise<unknown> {
    const run = this.queue.then(() => this.callOnce(method, params));
    // The caller has the error through `run`; the queue only has to move on.
    this.queue = run.catch((error: unknown) => log.debug('An agent call failed; the next one goes ahead', { method, error }));
    return run;
  }

  async close(): Promise<void> {
    await this.queue;
    if (!this.lost) await this.current.close();
  }

  private async callOnce(method: string, params: Record<string, unknown>): Promise<unknown> {
    if (this.lost) await this.reopen();
    else await this.preferHost();
    try {
      return await this.current.call(method, params);
    } catch (error) {
      if (!(error instanceof RouteLostError)) throw error;
      // The host went away (or restarted) between calls: find the new route and try once more.
      await this.reopen();
      return this.current.call(method, params);
    }
  }

  /** A host started since this process opened the workspace: hand over to it. */
  private async preferHost(): Promise<void> {
    if (this.current.route !== 'in-process' || !hostRuns(this.target)) return;
    const forwarded = await SocketAgentCaller.connect(agentSocketPath(this.target.dataDir), this.token, this.target.workspaceRoot);
    if (!forwarded) return;
    await this.current.close();
    this.current = forwarded;
    this.target.note(this.describe());
  }

  private async reopen(): Promise<void> {
    const previous = this.current;
    this.lost = true;
    // Close first: an in-process service must not hold the index while another route opens it.
    if (previous.route === 'socket') await previous.close().catch((error: unknown) => log.debug('The lost socket route could not be closed', { error }));
    this.current = await openAgentCaller(this.target, this.token);
    this.lost = false;
    if (this.current.route !== previous.route) this.target.note(this.describe());
  }

  private describe(): string {
    return this.current.route === 'socket'
      ? `reverie mcp: agent "${this.identity.name}", forwarding to the running host at ${agentSocketPath(this.target.dataDir)}`
      : `reverie mcp: agent "${this.identity.name}", no host running: serving the workspace from this process`;
  }
}
