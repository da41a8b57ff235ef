import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { TokenRefusedError } from '../../agents/mcp/agentCaller.js';
import { AgentRoute } from '../../agents/mcp/agentRoute.js';
import { createReverieMcpServer } from '../../agents/mcp/mcpServer.js';
import { claimStdoutForProtocol } from '../../agents/mcp/protocolStdout.js';
import { defineCommand } from '../command.js';
import { openService, type CliContext } from '../context.js';
import { info } from '../output.js';
import { packageVersion } from '../../platform/packageRoot.js';
import { processLogger } from '../../platform/log/processLog.js';
import { chooseWorkspace } from '../workspaceChoice.js';

const log = processLogger('cli/mcp');

export const AGENT_TOKEN_ENV = 'REVERIE_AGENT_TOKEN';

/**
 * `reverie mcp`: an MCP server on stdio for one agent (its token from --token or
 * REVERIE_AGENT_TOKEN). Forwards to the running host's agent socket, or serves the workspace
 * from this process when no host runs. Never prompts; stdout carries the protocol only.
 */
export const mcpCommand = defineCommand({
  name: 'mcp',
  summary: 'An MCP server on stdio for one agent (its token from --token or REVERIE_AGENT_TOKEN).',
  usage: ['mcp [--token T]'],
  flags: {
    token: { type: 'string', value: 'T', description: `the agent's token (default: env ${AGENT_TOKEN_ENV}); make one with \`reverie agents add <name>\`` },
  },
  async run(ctx, flags) {
    const protocolOut = claimStdoutForProtocol();
    const token = (flags.token ?? process.env[AGENT_TOKEN_ENV] ?? '').trim();
    if (!token) {
      info(`reverie mcp: no agent token: set ${AGENT_TOKEN_ENV} (or pass --token). Create one with \`reverie agents add <name>\`.`);
      return 1;
    }
    // stdin belongs to the protocol: never ask the person anything.
    const quiet: CliContext = { ...ctx, canPrompt: false };
    const explicit = ctx.workspace ?? (process.env.REVERIE_WORKSPACE || undefined);
    const workspace = await chooseWorkspace(explicit, ctx.settings, false);
    let route: AgentRoute;
    try {
      route = await AgentRoute.open({ dataDir: ctx.dataDir, workspaceId: workspace.id, workspaceRoot: workspace.root, openService: () => openService(quiet, workspace.root), note: info }, token);
    } catch (error) {
      if (!(error instanceof TokenRefusedError)) throw error;
      info(`reverie mcp: the agent token (${AGENT_TOKEN_ENV} or --token) was refused: ${error.message}`);
      return 1;
    }
    const server = createReverieMcpServer({ caller: route, version: packageVersion() });
    await server.connect(new StdioServerTransport(process.stdin, protocolOut));
    await untilClientLeaves();
    // The client left already; closing the server is clean-up.
    await server.close().catch((error: unknown) => log.debug('The MCP server could not be closed', { error }));
    await route.close();
    return 0;
  },
});

/** The client closes our stdin when it is done (or is gone); a signal stops us too. */
function untilClientLeaves(): Promise<void> {
  return new Promise((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    // Writing to a client that already left: stop instead of crashing on EPIPE.
    process.stdout.once('error', () => resolve());
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
}
