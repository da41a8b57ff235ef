import type { RpcFailure } from '../../src/agents/socket/agentSocketClient.js';

/** The JSON-RPC error a call was refused with (fails the test if it succeeded). */
export async function refusal(call: Promise<unknown>): Promise<RpcFailure> {
  try {
    await call;
  } catch (error) {
    const rpc = (error as { rpc?: RpcFailure }).rpc;
    if (rpc) return rpc;
    throw error;
  }
  throw new Error('expected the call to be refused');
}
