import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * Counts the requests read from the client and not answered yet. A client may write a batch
 * and close stdin at once; `reverie mcp` must still answer every request it read before it
 * exits, so it waits on `allAnswered()` after stdin ends. Call before `server.connect`:
 * it wraps the handler the server installs and every message the server sends.
 */
export function trackPendingRequests(transport: Transport): { allAnswered(): Promise<void> } {
  const pending = new Map<string | number, number>();
  let waiters: Array<() => void> = [];
  const settle = () => {
    if (pending.size > 0) return;
    const ready = waiters;
    waiters = [];
    ready.forEach((resolve) => resolve());
  };

  let handler: Transport['onmessage'];
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => handler,
    set(next: Transport['onmessage']) {
      handler = next && ((message, extra) => {
        if (isRequest(message)) pending.set(message.id, (pending.get(message.id) ?? 0) + 1);
        next(message, extra);
      });
    },
  });

  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    try {
      await send(message, options);
    } finally {
      if (isAnswer(message) && pending.has(message.id)) {
        const left = pending.get(message.id)! - 1;
        if (left > 0) pending.set(message.id, left);
        else pending.delete(message.id);
        settle();
      }
    }
  };

  return {
    allAnswered: () => new Promise<void>((resolve) => {
      waiters.push(resolve);
      settle();
    }),
  };
}

function isRequest(message: JSONRPCMessage): message is JSONRPCMessage & { id: string | number; method: string } {
  return 'method' in message && 'id' in message && message.id !== undefined;
}

function isAnswer(message: JSONRPCMessage): message is JSONRPCMessage & { id: string | number } {
  return !('method' in message) && 'id' in message && message.id !== undefined;
}
