import { agentTools, type McpConfigFormat } from '../../../../core/src/contract/index.js';

/** Copy-paste setup for the agents people connect to Reverie: one MCP server, `reverie mcp`, started by the command the engine reports. */

export const TOKEN_PLACEHOLDER = '<token>';
export const WORKSPACE_PLACEHOLDER = '<workspace path>';

export interface SetupSnippet {
  /** The agent tool's id (core/src/contract/tools.ts). */
  id: string;
  title: string;
  /** Where the snippet goes, in a sentence. */
  where: string;
  text: string;
}

/** A shell word: left bare when it is plainly safe, else single-quoted (POSIX). */
export function shellQuote(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** How the MCP server starts; before the engine says, the repository form with the workspace path. */
export interface Launch {
  command: string;
  args: string[];
}

export function fallbackLaunch(workspace: string): Launch {
  return { command: 'npx', args: ['reverie', 'mcp', '--workspace', workspace] };
}

export function claudeCodeSnippet(token: string, launch: Launch): string {
  const env = token === TOKEN_PLACEHOLDER ? `REVERIE_AGENT_TOKEN=${token}` : shellQuote(`REVERIE_AGENT_TOKEN=${token}`);
  const words = [launch.command, ...launch.args].map((w) => (w === WORKSPACE_PLACEHOLDER ? w : shellQuote(w)));
  return `claude mcp add reverie --env ${env} -- ${words.join(' ')}`;
}

/** `~/.codex/config.toml` (TOML basic strings take JSON's escapes). */
export function codexSnippet(token: string, launch: Launch): string {
  const args = launch.args.map((a) => JSON.stringify(a)).join(', ');
  return ['[mcp_servers.reverie]', `command = ${JSON.stringify(launch.command)}`, `args = [${args}]`, `env = { REVERIE_AGENT_TOKEN = ${JSON.stringify(token)} }`].join('\n');
}

/** Hermes: `mcp_servers` in `~/.hermes/config.yaml` (YAML flow values, JSON-quoted). */
export function hermesSnippet(token: string, launch: Launch): string {
  return [
    'mcp_servers:',
    '  reverie:',
    `    command: ${JSON.stringify(launch.command)}`,
    `    args: [${launch.args.map((a) => JSON.stringify(a)).join(', ')}]`,
    '    env:',
    `      REVERIE_AGENT_TOKEN: ${JSON.stringify(token)}`,
  ].join('\n');
}

/** OpenClaw: `mcp.servers` in `~/.openclaw/openclaw.json`. */
export function openClawSnippet(token: string, launch: Launch): string {
  const q = (value: string): string => JSON.stringify(value);
  return [
    '{',
    '  "mcp": {',
    '    "servers": {',
    '      "reverie": {',
    `        "command": ${q(launch.command)},`,
    `        "args": [${launch.args.map(q).join(', ')}],`,
    `        "env": { "REVERIE_AGENT_TOKEN": ${q(token)} }`,
    '      }',
    '    }',
    '  }',
    '}',
  ].join('\n');
}

const SNIPPETS: Readonly<Record<McpConfigFormat, (token: string, launch: Launch) => string>> = {
  'claude-code-cli': claudeCodeSnippet,
  'codex-toml': codexSnippet,
  'hermes-yaml': hermesSnippet,
  'openclaw-json': openClawSnippet,
};

/** One snippet per agent tool that can be connected (the registry says where its MCP config goes). */
export function setupSnippets(token: string | null, workspace: string | null, launch: Launch | null = null): SetupSnippet[] {
  const t = token ?? TOKEN_PLACEHOLDER;
  const w = launch ?? fallbackLaunch(workspace ?? WORKSPACE_PLACEHOLDER);
  return agentTools().flatMap((tool) =>
    tool.mcpConfig ? [{ id: tool.id, title: tool.label, where: tool.mcpConfig.where, text: SNIPPETS[tool.mcpConfig.format](t, w) }] : [],
  );
}

/** One line a socket client sends first on its connection. */
export function socketAuthExample(token: string | null): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'auth', params: { token: token ?? '…' } });
}

export function socketSearchExample(): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'memory.search', params: { query: 'what did I decide about the release', limit: 5 } });
}
