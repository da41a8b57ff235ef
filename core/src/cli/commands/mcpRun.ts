import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { TokenRefusedError } from '../../agents/mcp/agentCaller.js';
import { AgentRoute } from '../../agents/mcp/agentRoute.js';
import { createReverieMcpServer } from '../../agents/mcp/mcpServer.js';
import { createRefusingMcpServer, tokenRefusal } from '../../agents/mcp/refusingServer.js';
import type { Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { takeHandoff } from '../fast/mcpHandoff.js';
import { trackPendingRequests } from '../../agents/mcp/pendingRequests.js';
import { claimStdoutForProtocol } from '../../agents/mcp/protocolStdout.js';
import { openService, type CliContext } from '../context.js';
import { info } from '../output.js';
import { packageVersion } from '../../platform/packageRoot.js';
import { processLogger } from '../../platform/log/processLog.js';
import { chooseWorkspace } from '../workspaceChoice.js';

const log = processLogger('cli/mcp');

import { AGENT_TOKEN_ENV } from './mcp.js';

/**
 * `reverie mcp` served from this process or forwarded to a host (see commands/mcp.ts). Its own
 * module so that only this command loads the MCP SDK: every other command starts without it.
 */
export async function runMcp(ctx: CliContext, flags: { token?: string }): Promise<number> {
  const protocolOut = claimStdoutForProtocol();
  const token = (flags.token ?? process.env[AGENT_TOKEN_ENV] ?? '').trim();
  if (!token) {
    const reason = `no agent token: set ${AGENT_TOKEN_ENV} (or pass --token). Create one with \`reverie agents add NAME\` or \`reverie agents connect TOOL\`.`;
    info(`reverie mcp: ${reason}`);
    // At a terminal a person reads the line above; an MCP client is told through the protocol.
    return process.stdin.isTTY ? 1 : serveRefusal(reason, protocolOut);
  }
  // stdin belongs to the protocol: never ask the person anything, and never create a workspace.
  const quiet: CliContext = { ...ctx, canPrompt: false };
  const explicit = ctx.workspace ?? (process.env.REVERIE_WORKSPACE || undefined);
  const saved = explicit ?? ctx.settings.read().workspace ?? undefined;
  if (!saved) {
    const reason = 'no workspace chosen: pass --workspace DIR (the agent configuration `reverie agents connect` writes names it), or run `reverie status` once to choose one.';
    info(`reverie mcp: ${reason}`);
    return serveRefusal(reason, protocolOut);
  }
  const workspace = await chooseWorkspace(saved, ctx.settings, false);
  let route: AgentRoute;
  try {
    route = await AgentRoute.open({ dataDir: ctx.dataDir, workspaceId: workspace.id, workspaceRoot: workspace.root, openService: () => openService(quiet, workspace.root), note: info }, token);
  } catch (error) {
    if (!(error instanceof TokenRefusedError)) throw error;
    const reason = tokenRefusal(error.message);
    info(`reverie mcp: the agent token (${AGENT_TOKEN_ENV} or --token) was refused: ${reason}`);
    return serveRefusal(reason, protocolOut);
  }
  const server = createReverieMcpServer({ caller: route, version: packageVersion() });
  const transport = new StdioServerTransport(process.stdin, protocolOut);
  const handoff = takeHandoff();
  if (handoff) silenceAnswersTo(transport, handoff.handshake);
  const requests = trackPendingRequests(transport);
  await server.connect(transport);
  // Taking over a session the host served: the client's handshake is replayed, its answer not sent twice.
  for (const message of [...(handoff?.handshake ?? []), ...(handoff?.pending ?? [])]) transport.onmessage?.(message as JSONRPCMessage);
  if ((await untilClientLeaves()) === 'input-ended') {
    // A client may write its requests and close stdin at once: answer all of them, then let them reach stdout.
    await requests.allAnswered();
    await new Promise<void>((resolve) => protocolOut.end(resolve));
  }
  // The client left already; closing the server is clean-up.
  await server.close().catch((error: unknown) => log.debug('The MCP server could not be closed', { error }));
  await route.close();
  return 0;
}

/** The answers to `replay`'s requests were given already (by the host): they are not written again. */
function silenceAnswersTo(transport: StdioServerTransport, replay: readonly unknown[]): void {
  const ids = new Set<unknown>(replay.map((m) => (m as { id?: unknown }).id).filter((id) => id !== undefined));
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage) => {
    const id = (message as { id?: unknown }).id;
    if (!('method' in (message as object)) && ids.delete(id)) return;
    await send(message);
  };
}

/** Answers the MCP handshake, then every request with `reason`, until the client leaves. */
async function serveRefusal(reason: string, protocolOut: Writable): Promise<number> {
  const server = createRefusingMcpServer(reason, packageVersion());
  const transport = new StdioServerTransport(process.stdin, protocolOut);
  const requests = trackPendingRequests(transport);
  await server.connect(transport);
  if ((await untilClientLeaves()) === 'input-ended') {
    await requests.allAnswered();
    await new Promise<void>((resolve) => protocolOut.end(resolve));
  }
  await server.close().catch((error: unknown) => log.debug('The MCP server could not be closed', { error }));
  return 1;
}

/**
 * The client closes our stdin when it is done (then its requests still get their answers);
 * a client gone (EPIPE on stdout) or a signal stops us at once.
 */
function untilClientLeaves(): Promise<'input-ended' | 'stopped'> {
  return new Promise((resolve) => {
    process.stdin.once('end', () => resolve('input-ended'));
    process.stdin.once('close', () => resolve('input-ended'));
    process.stdout.once('error', () => resolve('stopped'));
    process.once('SIGINT', () => resolve('stopped'));
    process.once('SIGTERM', () => resolve('stopped'));
  });
}
