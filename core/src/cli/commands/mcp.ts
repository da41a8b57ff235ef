import { defineCommand } from '../command.js';

export const AGENT_TOKEN_ENV = 'REVERIE_AGENT_TOKEN';

/**
 * `reverie mcp`: an MCP server on stdio for one agent (its token from --token or
 * REVERIE_AGENT_TOKEN). Forwards to the running host's agent socket, or serves the workspace
 * from this process when no host runs. Never prompts; stdout carries the protocol only.
 * The work is in mcpRun.ts, loaded only when this command runs (it brings the MCP SDK).
 */
export const mcpCommand = defineCommand({
  name: 'mcp',
  summary: 'An MCP server on stdio for one agent (its token from --token or REVERIE_AGENT_TOKEN).',
  usage: ['mcp [--token T]'],
  flags: {
    token: { type: 'string', value: 'T', description: `the agent's token (default: env ${AGENT_TOKEN_ENV}); make one with \`reverie agents add <name>\`` },
  },
  async run(ctx, flags) {
    const { runMcp } = await import('./mcpRun.js');
    return runMcp(ctx, flags);
  },
});
