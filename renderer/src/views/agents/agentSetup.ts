/** Copy-paste setup for the agents people connect to Reverie: one MCP server, `npx reverie mcp`. */

export const TOKEN_PLACEHOLDER = '<token>';
export const WORKSPACE_PLACEHOLDER = '<workspace path>';

export interface SetupSnippet {
  id: 'claude-code' | 'codex' | 'hermes' | 'openclaw';
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

/** The MCP server's command line (what every snippet starts). */
export function mcpArgs(workspace: string): string[] {
  return ['reverie', 'mcp', '--workspace', workspace];
}

export function claudeCodeSnippet(token: string, workspace: string): string {
  const env = token === TOKEN_PLACEHOLDER ? `REVERIE_AGENT_TOKEN=${token}` : shellQuote(`REVERIE_AGENT_TOKEN=${token}`);
  const workspaceWord = workspace === WORKSPACE_PLACEHOLDER ? workspace : shellQuote(workspace);
  return `claude mcp add reverie --env ${env} -- npx reverie mcp --workspace ${workspaceWord}`;
}

/** `~/.codex/config.toml` (TOML basic strings take JSON's escapes). */
export function codexSnippet(token: string, workspace: string): string {
  const args = mcpArgs(workspace)
    .map((a) => JSON.stringify(a))
    .join(', ');
  return ['[mcp_servers.reverie]', 'command = "npx"', `args = [${args}]`, `env = { REVERIE_AGENT_TOKEN = ${JSON.stringify(token)} }`].join('\n');
}

/** Hermes: `mcp_servers` in `~/.hermes/config.yaml` (YAML flow values, JSON-quoted). */
export function hermesSnippet(token: string, workspace: string): string {
  return [
    'mcp_servers:',
    '  reverie:',
    '    command: "npx"',
    `    args: [${mcpArgs(workspace)
      .map((a) => JSON.stringify(a))
      .join(', ')}]`,
    '    env:',
    `      REVERIE_AGENT_TOKEN: ${JSON.stringify(token)}`,
  ].join('\n');
}

/** OpenClaw: `mcp.servers` in `~/.openclaw/openclaw.json`. */
export function openClawSnippet(token: string, workspace: string): string {
  const q = (value: string): string => JSON.stringify(value);
  return [
    '{',
    '  "mcp": {',
    '    "servers": {',
    '      "reverie": {',
    '        "command": "npx",',
    `        "args": [${mcpArgs(workspace).map(q).join(', ')}],`,
    `        "env": { "REVERIE_AGENT_TOKEN": ${q(token)} }`,
    '      }',
    '    }',
    '  }',
    '}',
  ].join('\n');
}

export function setupSnippets(token: string | null, workspace: string | null): SetupSnippet[] {
  const t = token ?? TOKEN_PLACEHOLDER;
  const w = workspace ?? WORKSPACE_PLACEHOLDER;
  return [
    { id: 'claude-code', title: 'Claude Code', where: 'Run this once in a terminal:', text: claudeCodeSnippet(t, w) },
    { id: 'codex', title: 'Codex', where: 'Add this to ~/.codex/config.toml:', text: codexSnippet(t, w) },
    {
      id: 'hermes',
      title: 'Hermes',
      where: 'Add this MCP server to its config (mcp_servers in ~/.hermes/config.yaml), then restart Hermes:',
      text: hermesSnippet(t, w),
    },
    {
      id: 'openclaw',
      title: 'OpenClaw',
      where: 'Add this MCP server to its config (mcp.servers in ~/.openclaw/openclaw.json), then reload the gateway:',
      text: openClawSnippet(t, w),
    },
  ];
}

/** One line a socket client sends first on its connection. */
export function socketAuthExample(token: string | null): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'auth', params: { token: token ?? '…' } });
}

export function socketSearchExample(): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'memory.search', params: { query: 'what did I decide about the release', limit: 5 } });
}
