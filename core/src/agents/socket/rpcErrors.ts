import type { ErrorCode } from '../../contract/index.js';

/**
 * JSON-RPC error codes of the agent socket: the standard ones, then Reverie's. Fixed and
 * documented (README, "Connect your agents"); a refusal never closes the connection.
 */
export const RPC_ERRORS = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  unauthenticated: -32001,
  forbiddenScope: -32002,
  invalidPath: -32003,
  tooLarge: -32004,
  notFound: -32005,
  conflict: -32006,
  busy: -32007,
} as const;

export function rpcCodeFor(code: ErrorCode): number {
  switch (code) {
    case 'invalid-input':
      return RPC_ERRORS.invalidParams;
    case 'unauthenticated':
      return RPC_ERRORS.unauthenticated;
    case 'forbidden':
      return RPC_ERRORS.invalidPath;
    case 'too-large':
      return RPC_ERRORS.tooLarge;
    case 'not-found':
      return RPC_ERRORS.notFound;
    case 'conflict':
      return RPC_ERRORS.conflict;
    case 'locked':
    case 'workspace-missing':
      return RPC_ERRORS.busy;
    default:
      return RPC_ERRORS.internal;
  }
}
