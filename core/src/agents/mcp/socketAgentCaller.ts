import type { AgentScope } from '../../contract/index.js';
import { AgentSocketClient, type RpcFailure } from '../socket/agentSocketClient.js';
import { RPC_ERRORS } from '../socket/rpcErrors.js';
import { AgentCallError, RouteLostError, TokenRefusedError, type AgentCaller, type CallerIdentity } from './agentCaller.js';
import { processLogger } from '../../platform/log/processLog.js';

const log = processLogger('agents/mcp');

/** Forwards each call to the running host's agent socket, under the same method name. */
export class SocketAgentCaller implements AgentCaller {
  readonly route = 'socket' as const;

  private constructor(
    private readonly client: AgentSocketClient,
    private readonly token: string,
    readonly identity: CallerIdentity,
  ) {}

  /** Null when nothing answers at `socketPath`; throws TokenRefusedError when the host refuses the token. */
  static async connect(socketPath: string, token: string, workspaceRoot: string): Promise<SocketAgentCaller | null> {
    let client: AgentSocketClient;
    try {
      client = await AgentSocketClient.connect(socketPath);
    } catch (error) {
      // Nothing answers: the caller serves the workspace in this process instead.
      log.debug('No host answers on the agent socket', { socketPath, error });
      return null;
    }
    try {
      const { agent, scopes, workspace } = await client.call<{ agent: string; scopes: AgentScope[]; workspace?: string }>('auth', { token });
      // The data folder's socket may serve another workspace: then this one is opened here instead.
      if (workspace !== undefined && workspace !== workspaceRoot) {
        client.close();
        return null;
      }
      return new SocketAgentCaller(client, token, { name: agent, scopes });
    } catch (error) {
      client.close();
      const rpc = rpcOf(error);
      if (rpc?.code === RPC_ERRORS.unauthenticated) throw new TokenRefusedError(rpc.message);
      return null;
    }
  }

  async call(method: string, params: Record<string, unknown>): Promise<unknown> {
    try {
      // The token rides on every request so a revocation takes effect on the next call.
      return await this.client.call(method, { ...params, token: this.token, via: 'mcp' });
    } catch (error) {
      const rpc = rpcOf(error);
      if (rpc) throw new AgentCallError(rpc.code, rpc.message);
      throw new RouteLostError((error as Error).message);
    }
  }

  async close(): Promise<void> {
    this.client.close();
  }
}

function rpcOf(error: unknown): RpcFailure | null {
  const rpc = (error as { rpc?: RpcFailure } | null)?.rpc;
  return rpc && typeof rpc.code === 'number' ? rpc : null;
}
