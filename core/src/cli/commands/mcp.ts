import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { TokenRefusedError } from '../../agents/mcp/agentCaller.js';
import { AgentRoute } from '../../agents/mcp/agentRoute.js';
import { createReverieMcpServer } from '../../agents/mcp/mcpServer.js';
import { trackPendingRequests } from '../../agents/mcp/pendingRequests.js';
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
    const transport = new StdioServerTransport(process.stdin, protocolOut);
    const requests = trackPendingRequests(transport);
    await server.connect(transport);
    if ((await untilClientLeaves()) === 'input-ended') {
      // A client may write its requests and close stdin at once: answer all of them, then let them reach stdout.
      await requests.allAnswered();
      await new Promise<void>((resolve) => protocolOut.end(resolve));
    }
    // The client left already; closing the server is clean-up.
    await server.close().catch((error: unknown) => log.debug('The MCP server could not be closed', { error }));
    await route.close();
    return 0;
  },
});

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
