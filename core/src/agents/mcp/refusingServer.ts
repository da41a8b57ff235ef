import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, GetPromptRequestSchema, ListPromptsRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema, McpError, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { RPC_ERRORS } from '../socket/rpcErrors.js';

/**
 * What `reverie mcp` serves when it cannot serve the agent (no token, an unknown or revoked one,
 * no workspace chosen): the handshake succeeds and every request is answered with the reason,
 * so the MCP client shows "token not known: run reverie agents add NAME" instead of
 * "Connection closed".
 */
export function createRefusingMcpServer(reason: string, version: string): Server {
  const server = new Server({ name: 'reverie', title: 'Reverie memory', version }, { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: `Reverie cannot serve this agent: ${reason}` });
  const refuse = (): never => {
    throw new McpError(RPC_ERRORS.unauthenticated, reason);
  };
  for (const schema of [ListToolsRequestSchema, CallToolRequestSchema, ListResourcesRequestSchema, ReadResourceRequestSchema, ListPromptsRequestSchema, GetPromptRequestSchema]) server.setRequestHandler(schema, refuse);
  return server;
}

/** The words a person reads for a refused token, with what to run. */
export function tokenRefusal(message: string): string {
  if (/revoked/i.test(message)) return `token revoked: ${message} Run \`reverie agents add NAME\` for a new one (or \`reverie agents connect TOOL\`).`;
  return `token not known: run \`reverie agents add NAME\` (or \`reverie agents connect TOOL\`) and give the agent its token. (${message})`;
}
