import type net from 'node:net';
import type { AccessLog } from '../accessLog.js';
import type { AgentRegistry, AuthenticatedAgent } from '../agentRegistry.js';
import { HostAgentCaller } from '../mcp/hostAgentCaller.js';
import { LineTransport } from '../mcp/lineTransport.js';
import { createReverieMcpServer } from '../mcp/mcpServer.js';
import { trackPendingRequests } from '../mcp/pendingRequests.js';
import { packageVersion } from '../../platform/packageRoot.js';
import type { Invoke } from './agentCall.js';

export interface HostMcpSession {
  receive(line: string): void;
  /** Resolves once every request received so far is answered. */
  allAnswered(): Promise<void>;
  close(): Promise<void>;
}

let version: string | null = null;

/** One MCP session on a connection of the agent socket, served by the host for one agent. */
export async function openHostMcpSession(deps: { registry: AgentRegistry; log: AccessLog; invoke: Invoke }, token: string, agent: AuthenticatedAgent, socket: net.Socket): Promise<HostMcpSession> {
  const transport = new LineTransport(
    (line) => {
      if (!socket.destroyed && socket.writable) socket.write(line);
    },
    () => socket.end(),
  );
  const requests = trackPendingRequests(transport);
  version ??= packageVersion();
  const server = createReverieMcpServer({ caller: new HostAgentCaller(deps, token, agent), version });
  await server.connect(transport);
  return {
    receive: (line) => transport.receive(line),
    allAnswered: () => requests.allAnswered(),
    close: () => server.close(),
  };
}
