import type { AccessLog } from '../accessLog.js';
import type { AgentRegistry, AuthenticatedAgent } from '../agentRegistry.js';
import { asRpcError, callAsAgent, type Invoke } from '../socket/agentCall.js';
import { AgentCallError, type AgentCaller, type CallerIdentity } from './agentCaller.js';

/**
 * Agent calls inside the host (MCP sessions on the agent socket and at `/mcp`): the same checks
 * as the socket's JSON-RPC (token re-checked on every call, so a revocation takes effect at
 * once; scope; contract; framing; access log), with no hop in between.
 */
export class HostAgentCaller implements AgentCaller {
  readonly route = 'socket' as const;

  constructor(
    private readonly deps: { registry: AgentRegistry; log: AccessLog; invoke: Invoke },
    private readonly token: string,
    private agent: AuthenticatedAgent,
    private readonly transport: 'mcp' = 'mcp',
  ) {}

  get identity(): CallerIdentity {
    return { name: this.agent.name, scopes: this.agent.scopes };
  }

  async call(method: string, params: Record<string, unknown>): Promise<unknown> {
    try {
      this.agent = this.deps.registry.authenticate(this.token);
      return await callAsAgent(this.deps, this.agent, method, params, this.transport);
    } catch (error) {
      const rpc = asRpcError(error);
      throw new AgentCallError(rpc.code, rpc.message);
    }
  }

  async close(): Promise<void> {}
}
