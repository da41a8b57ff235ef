import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { agentSocketPath } from '../../src/agents/socket/socketPath.js';

/**
 * A socket at a data folder's agent socket path that answers each JSON-RPC method with what the test
 * scripts: a host of another Reverie version, or a broken one, for the clients that must not trust it.
 */
export interface ScriptedHost {
  /** Methods in the order they arrived. */
  seen: string[];
  /** Resolves when the first `auth` arrives. */
  authSeen: Promise<void>;
  close(): Promise<void>;
}

export async function scriptedHost(dataDir: string, replies: Record<string, unknown>): Promise<ScriptedHost> {
  const seen: string[] = [];
  let authArrived!: () => void;
  const authSeen = new Promise<void>((resolve) => (authArrived = resolve));
  fs.mkdirSync(path.dirname(agentSocketPath(dataDir)), { recursive: true, mode: 0o700 });
  const server = net.createServer((socket) => {
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
        const request = JSON.parse(buffer.slice(0, nl)) as { id: number; method: string };
        buffer = buffer.slice(nl + 1);
        seen.push(request.method);
        if (request.method === 'auth') authArrived();
        socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: request.id, result: replies[request.method] })}\n`);
      }
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(agentSocketPath(dataDir), () => resolve()));
  return { seen, authSeen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
