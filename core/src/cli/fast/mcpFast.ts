import net from 'node:net';
import { agentSocketPath } from '../../agents/socket/socketPath.js';
import { readFastContext } from './fastContext.js';
import { handOff } from './mcpHandoff.js';
import { processLogger } from '../../platform/log/processLog.js';

const log = processLogger('cli/mcp');

/** How long `reverie mcp` waits for the host's socket to accept the connection before serving the workspace itself. */
const HOST_CONNECT_MS = 1500;
/**
 * Once connected, how long the host may take to answer `mcp.open`. A host that accepted is alive
 * but may be busy (ten agents starting at once on a loaded machine took over 1.5 s): falling back
 * then started a whole engine per client, which made the host slower still.
 */
const HOST_OPEN_MS = 15_000;

/**
 * `reverie mcp` with a host running: no engine, no MCP library — it opens an MCP session on the
 * host's agent socket (`mcp.open` with the token) and pipes stdin and stdout through. Without a
 * host (or with a token the host refuses, which the full command explains to the client), it runs
 * `fallback`, the full command. If the host goes away mid-session, the full command takes over
 * the same session (the handshake is replayed to it, unanswered calls sent again).
 */
export async function runMcpFast(argv: readonly string[], fallback: () => Promise<number>): Promise<number> {
  const ctx = readFastContext(argv);
  if (!ctx.workspaceRoot || !ctx.token) return fallback();
  const socket = await openSession(agentSocketPath(ctx.dataDir), ctx.token, ctx.workspaceRoot);
  if (!socket) return fallback();
  process.stderr.write(`reverie mcp: agent "${socket.agent}", forwarding to the running host at ${agentSocketPath(ctx.dataDir)}\n`);
  return pipe(socket.conn, socket.rest, fallback);
}

interface OpenSession {
  conn: net.Socket;
  agent: string;
  /** Bytes the host sent after its answer to `mcp.open` (already MCP). */
  rest: Buffer;
}

function openSession(socketPath: string, token: string, workspace: string): Promise<OpenSession | null> {
  return new Promise((resolve) => {
    const conn = net.connect({ path: socketPath, allowHalfOpen: true });
    let buffer = Buffer.alloc(0);
    const fail = () => {
      conn.destroy();
      resolve(null);
    };
    let timer = setTimeout(fail, HOST_CONNECT_MS);
    conn.once('error', () => {
      clearTimeout(timer);
      resolve(null);
    });
    conn.once('connect', () => {
      clearTimeout(timer);
      timer = setTimeout(fail, HOST_OPEN_MS);
      conn.write(`${JSON.stringify({ jsonrpc: '2.0', id: 'reverie-mcp-open', method: 'mcp.open', params: { token, workspace } })}\n`);
    });
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const newline = buffer.indexOf(0x0a);
      if (newline === -1) return;
      clearTimeout(timer);
      conn.off('data', onData);
      conn.pause();
      let answer: { result?: { agent?: string }; error?: unknown };
      try {
        answer = JSON.parse(buffer.subarray(0, newline).toString('utf8')) as typeof answer;
      } catch (error) {
        log.debug('The host answered mcp.open with a line that is not JSON', { error });
        return fail();
      }
      if (!answer.result?.agent) return fail();
      conn.removeAllListeners('error');
      resolve({ conn, agent: answer.result.agent, rest: buffer.subarray(newline + 1) });
    };
    conn.on('data', onData);
  });
}

/** How the host's MCP server ends a result: `{"result":…,"jsonrpc":"2.0","id":7}` (the SDK's key order). */
const RESULT_END = /,"jsonrpc":"2\.0","id":(-?\d+|"(?:[^"\\]|\\.)*")\}$/;

/**
 * The id a result line of the host answers, read from its end: a search's answer is ~10 KB of
 * text, and parsing all of it to learn its id was a third of this process's CPU per call.
 * Undefined for any other line (requests, notifications, errors), which is parsed as a whole.
 */
export function resultId(line: string): string | number | undefined {
  if (!line.startsWith('{"result":')) return undefined;
  const end = RESULT_END.exec(line.slice(-200).trimEnd());
  return end ? (JSON.parse(end[1]!) as string | number) : undefined;
}

function pipe(conn: net.Socket, rest: Buffer, fallback: () => Promise<number>): Promise<number> {
  return new Promise((resolve) => {
    const stdin = process.stdin;
    const stdout = process.stdout;
    const handshake: unknown[] = [];
    const inFlight = new Map<string | number, unknown>();
    let fromClient = '';
    let fromHost = '';
    let inputEnded = false;
    let done = false;

    const watchClient = (line: string) => {
      let message: { id?: string | number; method?: string };
      try {
        message = JSON.parse(line) as typeof message;
      } catch (error) {
        log.debug('the host answers it with a parse error', { error });
        return;
      }
      if (message.method === 'initialize' || message.method === 'notifications/initialized') handshake.push(message);
      else if (message.method !== undefined && message.id !== undefined) inFlight.set(message.id, message);
    };
    const watchHost = (line: string) => {
      const answered = resultId(line);
      if (answered !== undefined) {
        inFlight.delete(answered);
        return;
      }
      try {
        const message = JSON.parse(line) as { id?: string | number; method?: string };
        if (message.method === undefined && message.id !== undefined) inFlight.delete(message.id);
      } catch (error) {
        log.debug('not ours to judge: the client reads it', { error });
        // not ours to judge: the client reads it
      }
    };
    const lines = (carry: string, chunk: Buffer, each: (line: string) => void): string => {
      const text = carry + chunk.toString('utf8');
      const parts = text.split('\n');
      const last = parts.pop()!;
      for (const part of parts) if (part.trim()) each(part);
      return last;
    };

    const onStdin = (chunk: Buffer) => {
      fromClient = lines(fromClient, chunk, watchClient);
      conn.write(chunk);
    };
    const onHost = (chunk: Buffer) => {
      fromHost = lines(fromHost, chunk, watchHost);
      stdout.write(chunk);
    };
    stdin.on('data', onStdin);
    stdin.once('end', () => {
      inputEnded = true;
      conn.end(); // the host answers what it has, then closes
    });
    conn.on('data', onHost);
    if (rest.length) onHost(rest);
    conn.resume();
    conn.on('error', () => conn.destroy());
    conn.once('close', () => {
      if (done) return;
      done = true;
      if (inputEnded) return resolve(0);
      // The host went away mid-session: this process serves the session itself, and answers what the host left unanswered
      // (most such calls were sent after it had gone; a write it did finish is refused or recognised the second time: refs, duplicates).
      stdin.off('data', onStdin);
      stdin.pause();
      if (fromClient) stdin.unshift(Buffer.from(fromClient, 'utf8'));
      process.stderr.write('reverie mcp: the host stopped; serving the workspace from this process\n');
      handOff({ handshake, pending: [...inFlight.values()] });
      resolve(fallback());
    });
  });
}
