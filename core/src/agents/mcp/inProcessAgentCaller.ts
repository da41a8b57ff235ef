import type { CallContext, OperationInput, OperationName, OperationOutput } from '../../contract/index.js';
import { ReverieError } from '../../platform/errors.js';
import type { AgentService } from '../agentService.js';
import type { AuthenticatedAgent } from '../agentRegistry.js';
import { asRpcError, callAsAgent } from '../socket/agentCall.js';
import { AgentCallError, TokenRefusedError, type AgentCaller, type CallerIdentity } from './agentCaller.js';

/** Methods that read the index: without a host keeping it fresh, catch up first. */
const READS_INDEX = new Set(['memory.search', 'memory.get', 'sessions.get', 'context.match']);
/** A no-op sync still stats every file (~0.4 s at 10k files): an agent's burst of calls shares one. */
const CATCH_UP_EVERY_MS = 5_000;

/** What the in-process route needs of an opened workspace (the engine satisfies it). */
export interface AgentEngine {
  readonly agents: Pick<AgentService, 'registry' | 'log'>;
  invoke<N extends OperationName>(name: N, input: OperationInput<N>, context?: CallContext): Promise<OperationOutput<N>>;
  /** Agent calls name their method at run time; the contract still validates them. */
  invokeUnchecked(name: string, input: unknown, context?: CallContext): Promise<unknown>;
  /** A corruption error from the agents (or dreaming) store, as an error naming the file and what to do. */
  explainStoreDamage(error: unknown): unknown;
  close(): Promise<void>;
}

/** No host runs: this process opens the workspace and runs the agent methods itself. */
export class InProcessAgentCaller implements AgentCaller {
  readonly route = 'in-process' as const;

  private constructor(
    private readonly service: AgentEngine,
    private readonly token: string,
    private agent: AuthenticatedAgent,
  ) {}

  private lastCatchUp = -Infinity;

  /** Takes ownership of `service` (closed on a refused token and by `close`). */
  static async open(service: AgentEngine, token: string): Promise<InProcessAgentCaller> {
    try {
      return new InProcessAgentCaller(service, token, service.agents.registry.authenticate(token));
    } catch (error) {
      const explained = service.explainStoreDamage(error); // while the store is still open to check
      await service.close();
      if (error instanceof ReverieError && error.code === 'unauthenticated') throw new TokenRefusedError(error.message);
      throw explained;
    }
  }

  get identity(): CallerIdentity {
    return { name: this.agent.name, scopes: this.agent.scopes };
  }

  async call(method: string, params: Record<string, unknown>): Promise<unknown> {
    const { registry, log } = this.service.agents;
    try {
      // Checked on every call, as the socket does, so a revocation takes effect at once.
      this.agent = registry.authenticate(this.token);
      if (READS_INDEX.has(method) && performance.now() - this.lastCatchUp > CATCH_UP_EVERY_MS) {
        await this.service.invoke('index.sync', { force: false });
        this.lastCatchUp = performance.now();
      }
    } catch (error) {
      const rpc = asRpcError(this.service.explainStoreDamage(error));
      throw new AgentCallError(rpc.code, rpc.message);
    }
    try {
      return await callAsAgent({ registry, log, invoke: (name, input, context) => this.service.invokeUnchecked(name, input, context) }, this.agent, method, params, 'mcp');
    } catch (error) {
      const rpc = asRpcError(this.service.explainStoreDamage(error));
      throw new AgentCallError(rpc.code, rpc.message);
    }
  }

  async close(): Promise<void> {
    await this.service.close();
  }
}
