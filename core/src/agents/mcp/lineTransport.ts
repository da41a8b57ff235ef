import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { processLogger } from '../../platform/log/processLog.js';

const log = processLogger('agents/mcp');

/**
 * An MCP transport over newline-delimited JSON on any byte stream (a connection of the agent
 * socket): the host serves `reverie mcp`'s sessions through it, so that command only pipes bytes.
 */
export class LineTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private closed = false;

  constructor(private readonly write: (line: string) => void, private readonly end: () => void) {}

  async start(): Promise<void> {}

  /** One line from the client. */
  receive(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch (error) {
      log.debug('An MCP client sent a line that is not a JSON-RPC message', { error });
      this.write(`${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: each line must be one JSON-RPC 2.0 message.' } })}\n`);
      return;
    }
    this.onmessage?.(message);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.closed) this.write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.end();
    this.onclose?.();
  }
}
