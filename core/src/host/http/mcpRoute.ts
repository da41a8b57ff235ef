import type http from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { HostAgentCaller } from '../../agents/mcp/hostAgentCaller.js';
import { createReverieMcpServer } from '../../agents/mcp/mcpServer.js';
import { tokenRefusal } from '../../agents/mcp/refusingServer.js';
import { RPC_ERRORS } from '../../agents/socket/rpcErrors.js';
import type { MemoryService } from '../../engine/memoryService.js';
import { ReverieError } from '../../platform/errors.js';
import { packageVersion } from '../../platform/packageRoot.js';

/**
 * MCP over Streamable HTTP at `/mcp` on the host's loopback port, for agents in a container or
 * on another machine (through `ssh -R` or a port forward): each request carries the agent's own
 * token as `Authorization: Bearer rvr_…`; the same tools, scopes and access log as the socket.
 * Stateless: every POST is answered on its own (a fresh server and transport per request).
 */
export async function serveMcpRequest(service: MemoryService, req: http.IncomingMessage, res: http.ServerResponse, token: string | null, body: unknown): Promise<void> {
  const { registry, log } = service.agents;
  let agent;
  try {
    agent = registry.authenticate(token);
  } catch (error) {
    if (!(error instanceof ReverieError) || error.code !== 'unauthenticated') throw error;
    res.writeHead(401, { 'Content-Type': 'application/json; charset=utf-8', 'WWW-Authenticate': 'Bearer realm="reverie"' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: RPC_ERRORS.unauthenticated, message: tokenRefusal(error.message) } }));
    return;
  }
  const caller = new HostAgentCaller({ registry, log, invoke: (name, input, context) => service.invokeUnchecked(name, input, context) }, token!, agent);
  const server = createReverieMcpServer({ caller, version: packageVersion() });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}
