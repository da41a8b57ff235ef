import type { CallContext } from '../../contract/index.js';
import { ReverieError, toErrorPayload } from '../../platform/errors.js';
import type { AccessLog } from '../accessLog.js';
import { AGENT_METHODS, scopeOf } from '../agentMethods.js';
import type { AgentRegistry, AuthenticatedAgent } from '../agentRegistry.js';
import { RPC_ERRORS, rpcCodeFor } from './rpcErrors.js';

/** The engine's unchecked entry (`invokeUnchecked`): an agent names its method at run time, and the contract validates it. */
export type Invoke = (name: string, input: unknown, context: CallContext) => Promise<unknown>;

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * One agent call, whatever the transport (socket or MCP): authenticate, check the method is
 * offered and the scope allows it, run it through the contract, frame memory text, log it.
 */
export async function callAsAgent(
  deps: { registry: AgentRegistry; log: AccessLog; invoke: Invoke },
  agent: AuthenticatedAgent,
  method: string,
  params: Record<string, unknown>,
  transport: 'socket' | 'mcp',
): Promise<unknown> {
  const started = performance.now();
  const offered = Object.prototype.hasOwnProperty.call(AGENT_METHODS, method) ? (method as keyof typeof AGENT_METHODS) : null;
  const spec = offered ? AGENT_METHODS[offered] : undefined;
  const detail = spec?.detail(params) ?? null;
  const log = (ok: boolean, results: number | null, error: string | null) =>
    deps.log.record({ agentId: agent.id, agentName: agent.name, at: new Date().toISOString(), method, detail, results, ok, error, durationMs: Math.round((performance.now() - started) * 100) / 100, transport });
  try {
    if (!spec || !offered) throw new RpcError(RPC_ERRORS.methodNotFound, `Unknown method "${method}". Agents can call: auth, ${Object.keys(AGENT_METHODS).join(', ')}.`);
    if (!agent.scopes.includes(scopeOf(offered))) {
      throw new RpcError(RPC_ERRORS.forbiddenScope, `Agent "${agent.name}" has a read-only token; ${method} needs the write scope (\`reverie agents add ${agent.name} --write\` after revoking this one).`);
    }
    const refusal = spec.refuse?.(params) ?? null;
    if (refusal) throw new RpcError(RPC_ERRORS.invalidParams, refusal);
    const output = await deps.invoke(method, params, { transport: transport === 'mcp' ? 'mcp' : 'agent', agent });
    log(true, spec.count(output), null);
    return spec.frame(output);
  } catch (error) {
    const rpc = asRpcError(error);
    log(false, null, rpc.message.slice(0, 200));
    throw rpc;
  }
}

export function asRpcError(error: unknown): RpcError {
  if (error instanceof RpcError) return error;
  if (error instanceof ReverieError) return new RpcError(rpcCodeFor(error.code), error.message);
  const payload = toErrorPayload(error);
  return new RpcError(rpcCodeFor(payload.code), payload.message);
}
