import net from 'node:net';
import { ReverieError } from '../../platform/errors.js';
import { processLogger } from '../../platform/log/processLog.js';

const log = processLogger('agents/socket');

export interface RpcFailure {
  code: number;
  message: string;
}

/**
 * A small client for the agent socket: one connection, requests answered in order, each
 * resolved by id. Used by `reverie mcp` to forward to a running host, by tests and the bench.
 */
export class AgentSocketClient {
  private nextId = 1;
  private buffer = '';
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private closedError: Error | null = null;

  private constructor(private readonly socket: net.Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => this.onData(chunk));
    const fail = (error: Error) => {
      this.closedError = error;
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
    };
    socket.on('error', (error) => fail(error));
    socket.on('close', () => fail(new ReverieError('internal', 'The agent socket closed the connection.')));
  }

  static connect(socketPath: string, timeoutMs = 2000): Promise<AgentSocketClient> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(socketPath);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new ReverieError('internal', `No answer from the agent socket ${socketPath} within ${timeoutMs} ms.`));
      }, timeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve(new AgentSocketClient(socket));
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  /** Resolves with the result; rejects with an Error carrying `rpc` ({code, message}) on a JSON-RPC error, or after `timeoutMs`. */
  call<T = unknown>(method: string, params: Record<string, unknown> = {}, timeoutMs = 60_000): Promise<T> {
    if (this.closedError) return Promise.reject(this.closedError);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ReverieError('internal', `The agent socket did not answer ${method} within ${Math.round(timeoutMs / 1000)} s.`));
      }, timeoutMs);
      timer.unref();
      const settle = <A extends unknown[]>(fn: (...a: A) => void) => (...a: A) => {
        clearTimeout(timer);
        fn(...a);
      };
      this.pending.set(id, { resolve: settle(resolve as (v: unknown) => void), reject: settle(reject) });
      this.socket.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  /** Sends raw bytes (tests of malformed input); answers arrive through `onRaw`. */
  writeRaw(text: string): void {
    this.socket.write(text);
  }

  onRaw: ((message: unknown) => void) | null = null;

  close(): void {
    this.socket.end();
    this.socket.destroy();
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    for (let newline = this.buffer.indexOf('\n'); newline !== -1; newline = this.buffer.indexOf('\n')) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      if (!line.trim()) continue;
      let message: { id?: number | null; result?: unknown; error?: RpcFailure };
      try {
        message = JSON.parse(line) as typeof message;
      } catch (error) {
        // Not from a Reverie host: drop the line rather than crash the client.
        log.debug('The agent socket sent a line that is not JSON; dropped', { error });
        continue;
      }
      const waiting = typeof message.id === 'number' ? this.pending.get(message.id) : undefined;
      if (!waiting) {
        this.onRaw?.(message);
        continue;
      }
      this.pending.delete(message.id as number);
      if (message.error) waiting.reject(Object.assign(new Error(message.error.message), { rpc: message.error }));
      else waiting.resolve(message.result);
    }
  }
}
