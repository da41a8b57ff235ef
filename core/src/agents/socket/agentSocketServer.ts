import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ReverieError, errnoCode } from '../../platform/errors.js';
import type { AccessLog } from '../accessLog.js';
import { RevokedTokenError, type AgentRegistry } from '../agentRegistry.js';
import { asRpcError, callAsAgent, RpcError, type Invoke } from './agentCall.js';
import { LineSplitter, MAX_REQUEST_BYTES } from './lineSplitter.js';
import { RPC_ERRORS } from './rpcErrors.js';
import type { HostMcpSession } from './hostMcpSession.js';
import { isOwnerToken } from './ownerToken.js';
import { operations } from '../../contract/index.js';
import type { Logger } from '../../platform/log/logger.js';
import { processLogger } from '../../platform/log/processLog.js';

const log = processLogger('agents/socket');

export interface AgentSocketOptions {
  socketPath: string;
  /** Told to clients on `auth`: a data folder's socket serves one workspace at a time. */
  workspaceRoot: string;
  registry: AgentRegistry;
  log: AccessLog;
  invoke: Invoke;
  /** The person's per-launch token (see ownerToken.ts): `host.invoke` runs read operations for one-shot CLI commands. */
  ownerToken?: () => string | null;
  logger?: Logger;
}

type JsonRpcId = string | number | null;

/** Requests waiting on one connection before the host stops reading more from it. */
const MAX_QUEUED_REQUESTS = 256;

/** sun_path holds 108 bytes on Linux, 104 on macOS, each with the terminating NUL. */
const MAX_SOCKET_PATH_BYTES = process.platform === 'linux' ? 107 : 103;

/**
 * The agent socket: JSON-RPC 2.0, one JSON object per line, on a Unix domain socket (0600,
 * in a 0700 folder) or a Windows named pipe. A client authenticates with `auth {token}` once
 * per connection, or with `token` in each request's params. Refusals are JSON-RPC errors with
 * fixed codes and never close the connection.
 */
export class AgentSocketServer {
  private server: net.Server | null = null;
  private readonly connections = new Set<net.Socket>();

  constructor(private readonly options: AgentSocketOptions) {}

  get path(): string {
    return this.options.socketPath;
  }

  get listening(): boolean {
    return this.server?.listening ?? false;
  }

  async start(): Promise<void> {
    const file = this.options.socketPath;
    if (process.platform !== 'win32') {
      // Longer paths are silently truncated by the OS: the socket would appear somewhere else.
      if (Buffer.byteLength(file) > MAX_SOCKET_PATH_BYTES) {
        throw new ReverieError('invalid-input', `The agent socket path ${file} is too long for a Unix socket (over ${MAX_SOCKET_PATH_BYTES} bytes); use a shorter data folder (--data-dir).`);
      }
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      fs.chmodSync(path.dirname(file), 0o700);
      await removeStaleSocket(file);
    }
    // Half-open: a client that ends its side (`reverie mcp` when its stdin ends) still gets every answer.
    const server = net.createServer({ allowHalfOpen: true }, (socket) => this.accept(socket));
    // The socket is created with the umask; tighten it before anyone can connect, and always restore it.
    const previous = process.platform === 'win32' ? null : process.umask(0o177);
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', (error) => reject(errnoCode(error) === 'EADDRINUSE' ? new ReverieError('locked', `The agent socket ${file} is in use by another running host.`) : error));
        server.listen(file, () => resolve());
      });
    } finally {
      if (previous !== null) process.umask(previous);
    }
    try {
      if (process.platform !== 'win32') fs.chmodSync(file, 0o600);
    } catch (error) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      throw error;
    }
    this.server = server;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.connections) socket.destroy();
    // Never started (e.g. another host's socket is live): the file is not ours to remove.
    if (!server) return;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (process.platform !== 'win32') fs.rmSync(this.options.socketPath, { force: true });
  }

  private accept(socket: net.Socket): void {
    this.connections.add(socket);
    const splitter = new LineSplitter();
    let sessionToken: unknown;
    let queue = Promise.resolve();
    let queued = 0;
    /** After `mcp.open`, this connection carries one MCP session (what `reverie mcp` pipes). */
    let mcp: HostMcpSession | null = null;
    const send = (message: object) => {
      // A client that went away mid-answer is simply gone: never an error for the host.
      if (socket.destroyed || !socket.writable) return;
      // Answers the client is not reading pile up in its socket buffer: stop reading its requests until it drains.
      if (!socket.write(`${JSON.stringify(message)}\n`)) socket.pause();
    };
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      this.connections.delete(socket);
      void mcp?.close();
    });
    // The client closed its side: answer everything it sent, then close ours.
    socket.on('end', () => {
      queue = queue.then(async () => {
        await mcp?.allAnswered();
        socket.end();
      });
    });
    socket.on('data', (chunk: Buffer) => {
      for (const item of splitter.push(chunk)) {
        // Requests on one connection are answered in order, an oversized one's refusal included.
        if (item.kind === 'too-large') {
          const refusal = errorReply(null, RPC_ERRORS.tooLarge, `Request of ${item.bytes} bytes refused: requests are limited to ${MAX_REQUEST_BYTES} bytes.`);
          queue = queue.then(() => send(refusal));
          continue;
        }
        queued++;
        // A client that sends without reading its answers is slowed down, not buffered without bound.
        if (queued >= MAX_QUEUED_REQUESTS) socket.pause();
        queue = queue.then(async () => {
          try {
            // A client that is gone gets no more work done on its behalf.
            if (socket.destroyed) return;
            // MCP messages go to the session as they come: it answers them concurrently.
            if (mcp) return mcp.receive(item.text);
            const reply = await this.handle(item.text, sessionToken, (t) => (sessionToken = t), (session) => (mcp = session), socket);
            if (reply) send(reply);
          } finally {
            queued--;
            if (queued < MAX_QUEUED_REQUESTS / 4 && socket.isPaused() && !socket.writableNeedDrain) socket.resume();
          }
        });
      }
    });
    socket.on('drain', () => {
      if (queued < MAX_QUEUED_REQUESTS / 4) socket.resume();
    });
  }

  private async handle(line: string, sessionToken: unknown, setSessionToken: (token: unknown) => void, openMcp: (session: HostMcpSession) => void, socket: net.Socket): Promise<object | null> {
    let request: unknown;
    try {
      request = JSON.parse(line);
    } catch (error) {
      // The client is told (a JSON-RPC parse error); the log keeps a trace.
      (this.options.logger ?? log).debug('An agent sent a line that is not JSON', { error });
      return errorReply(null, RPC_ERRORS.parseError, 'Parse error: each line must be one JSON-RPC 2.0 request object.');
    }
    if (!isRequest(request)) return errorReply(idOf(request), RPC_ERRORS.invalidRequest, 'Invalid request: expected {"jsonrpc":"2.0","id":…,"method":"…","params":{…}}.');
    const id = request.id ?? null;
    // `token` and `via` are transport fields: `via: "mcp"` marks calls `reverie mcp` forwards, for the access log.
    const { token, via, ...params } = (request.params ?? {}) as Record<string, unknown>;
    try {
      if (request.method === 'mcp.open') {
        // `reverie mcp` hands this connection over to an MCP session for the agent; answered before any MCP message.
        const agent = this.options.registry.authenticate(token);
        const workspace = (request.params as { workspace?: unknown } | undefined)?.workspace;
        if (typeof workspace === 'string' && workspace !== this.options.workspaceRoot) {
          throw new RpcError(RPC_ERRORS.busy, `This host serves ${this.options.workspaceRoot}, not ${workspace}.`);
        }
        // Loaded on the first MCP session: the MCP SDK is not part of every command that opens the engine.
        const { openHostMcpSession } = await import('./hostMcpSession.js');
        openMcp(await openHostMcpSession(this.options, token as string, agent, socket));
        return { jsonrpc: '2.0', id, result: { agent: agent.name, scopes: agent.scopes, workspace: this.options.workspaceRoot } };
      }
      if (request.method === 'host.invoke') return { jsonrpc: '2.0', id, result: await this.invokeAsOwner(token, params) };
      if (request.method === 'auth') {
        const authenticated = this.options.registry.authenticate(token);
        setSessionToken(token);
        return request.id === undefined ? null : { jsonrpc: '2.0', id, result: { agent: authenticated.name, scopes: authenticated.scopes, workspace: this.options.workspaceRoot } };
      }
      // Checked on every call, so a revocation also ends connections that authenticated before it.
      const given = token !== undefined ? token : sessionToken;
      if (given === undefined) throw new RpcError(RPC_ERRORS.unauthenticated, 'Not authenticated: send {"method":"auth","params":{"token":"…"}} first, or "token" in the params.');
      const caller = this.options.registry.authenticate(given);
      const result = await callAsAgent(this.options, caller, request.method, params, via === 'mcp' ? 'mcp' : 'socket');
      return request.id === undefined ? null : { jsonrpc: '2.0', id, result };
    } catch (error) {
      if (error instanceof RevokedTokenError) {
        const { agent } = error;
        this.options.log.record({ agentId: agent.id, agentName: agent.name, at: new Date().toISOString(), method: request.method, detail: null, results: null, ok: false, error: error.message, durationMs: 0, transport: via === 'mcp' ? 'mcp' : 'socket' });
      }
      const rpc = asRpcError(error);
      return errorReply(id, rpc.code, rpc.message);
    }
  }

  /**
   * A one-shot CLI command of the person's (`reverie search` with a host running): any read
   * operation of the contract, checked by it as every transport is, with no agent framing.
   */
  private async invokeAsOwner(token: unknown, params: Record<string, unknown>): Promise<unknown> {
    if (!isOwnerToken(this.options.ownerToken?.() ?? null, token)) throw new RpcError(RPC_ERRORS.unauthenticated, 'host.invoke needs the host owner token (the data folder\'s host-owner.token).');
    const { operation, input, workspace } = params;
    if (typeof workspace === 'string' && workspace !== this.options.workspaceRoot) throw new RpcError(RPC_ERRORS.busy, `This host serves ${this.options.workspaceRoot}, not ${workspace}.`);
    const spec = typeof operation === 'string' && Object.prototype.hasOwnProperty.call(operations, operation) ? operations[operation as keyof typeof operations] : null;
    if (!spec || spec.access !== 'read') throw new RpcError(RPC_ERRORS.methodNotFound, `host.invoke runs read operations only; "${String(operation)}" is not one.`);
    return this.options.invoke(operation as string, input ?? {}, { transport: 'cli' });
  }
}

function errorReply(id: JsonRpcId, code: number, message: string): object {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

function isRequest(value: unknown): value is { jsonrpc: '2.0'; id?: JsonRpcId; method: string; params?: unknown } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const r = value as Record<string, unknown>;
  const idOk = r.id === undefined || r.id === null || typeof r.id === 'string' || typeof r.id === 'number';
  const paramsOk = r.params === undefined || (typeof r.params === 'object' && r.params !== null && !Array.isArray(r.params));
  return r.jsonrpc === '2.0' && typeof r.method === 'string' && idOk && paramsOk;
}

function idOf(value: unknown): JsonRpcId {
  const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : null;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/**
 * A socket file left by a crashed host is removed; a live one (something answers) is never
 * touched: the caller then fails with "in use".
 */
async function removeStaleSocket(file: string): Promise<void> {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch (error) {
    log.debug('No agent socket file to remove', { file, error });
    return;
  }
  if (!stat.isSocket()) throw new ReverieError('conflict', `${file} exists and is not a socket; move it away so Reverie can create its agent socket there.`);
  const alive = await new Promise<boolean>((resolve) => {
    const probe = net.connect(file);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
  if (alive) throw new ReverieError('locked', `Another host is serving the agent socket ${file}.`);
  fs.rmSync(file, { force: true });
}
