import os from 'node:os';
import path from 'node:path';
import { agentTool, type ConnectableTool } from '../../contract/index.js';
import { defaultToolHome } from '../../platform/toolHome.js';

/** The hook events Reverie answers (`reverie hook <event>`), as each tool names them. */
export const HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreCompact', 'Stop', 'SessionEnd'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** What the tool's configuration must say: the MCP server's launch, with the token, and the hook commands. */
export interface Launch {
  command: string;
  args: string[];
  token: string;
  /** The words of `reverie hook <event> …` before the event name is appended. */
  hookWords: string[];
  /** Set for both (the desktop app's ELECTRON_RUN_AS_NODE). */
  env: Record<string, string>;
}

/** One semantic change to a configuration file; each format applies it to the text and to the parsed value. */
export type ConfigOp =
  | { kind: 'set'; path: string[]; value: Record<string, unknown> }
  | { kind: 'unset'; path: string[] }
  /** Claude-style hook lists (`hooks.<Event>`: matcher groups): Reverie's group replaces any earlier one of its own. */
  | { kind: 'hook'; event: HookEvent; group: Record<string, unknown> | null }
  /** A flag under a TOML table, added only when the key is missing (the person's own value wins). */
  | { kind: 'flag'; table: string; key: string };

export interface ConfigTarget {
  file: string;
  format: 'json' | 'toml' | 'yaml';
  connect(launch: Launch): ConfigOp[];
  disconnect(): ConfigOp[];
  /** The MCP server entry's token in a parsed file (to reuse it and to show what was there). */
  tokenPath: string[];
}

/** A hook command for a shell (Claude Code and Codex run hook commands through `sh -c`). */
export function shellLine(words: readonly string[]): string {
  return words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** Reverie's own hook groups are recognised by their command: `… hook <Event> --tool <id>`. */
export function isReverieHookGroup(group: unknown, tool: string): boolean {
  const hooks = (group as { hooks?: unknown } | null)?.hooks;
  return Array.isArray(hooks) && hooks.some((h) => typeof (h as { command?: unknown })?.command === 'string' && new RegExp(` hook [A-Za-z]+ --tool ${tool}\\b`).test((h as { command: string }).command));
}

function hookGroup(launch: Launch, event: HookEvent, timeoutSeconds: number): Record<string, unknown> {
  const prefix = Object.entries(launch.env).map(([k, v]) => `${k}=${shellLine([v])} `).join('');
  return { hooks: [{ type: 'command', command: prefix + shellLine([launch.command, ...launch.hookWords.slice(0, 2), event, ...launch.hookWords.slice(2)]), timeout: timeoutSeconds }] };
}

const mcpServer = (launch: Launch) => ({ command: launch.command, args: launch.args, env: { ...launch.env, REVERIE_AGENT_TOKEN: launch.token } });

/** Hooks answer quickly or not at all (hooks/hookRunner.ts); the tool's timeout is a backstop. */
const HOOK_TIMEOUT_S = 10;

export interface TargetOptions {
  scope: 'user' | 'project';
  projectDir?: string;
  env?: NodeJS.ProcessEnv;
  home?: string;
}

/** The files `reverie agents connect <tool>` edits, and how. */
export function configTargets(tool: ConnectableTool, options: TargetOptions): ConfigTarget[] {
  const home = options.home ?? os.homedir();
  const env = options.env ?? process.env;
  const toolHome = defaultToolHome(agentTool(tool)!, { env, userHome: home });
  switch (tool) {
    case 'claude-code': {
      const mcpFile = options.scope === 'project' ? path.join(path.resolve(options.projectDir ?? process.cwd()), '.mcp.json') : path.join(home, '.claude.json');
      const events: HookEvent[] = ['SessionStart', 'UserPromptSubmit', 'PreCompact', 'SessionEnd'];
      return [
        {
          file: mcpFile,
          format: 'json',
          tokenPath: ['mcpServers', 'reverie', 'env', 'REVERIE_AGENT_TOKEN'],
          connect: (launch) => [{ kind: 'set', path: ['mcpServers', 'reverie'], value: { type: 'stdio', ...mcpServer(launch) } }],
          disconnect: () => [{ kind: 'unset', path: ['mcpServers', 'reverie'] }],
        },
        {
          file: path.join(toolHome, 'settings.json'),
          format: 'json',
          tokenPath: [],
          connect: (launch) => events.map((event) => ({ kind: 'hook', event, group: hookGroup(launch, event, HOOK_TIMEOUT_S) })),
          disconnect: () => events.map((event) => ({ kind: 'hook', event, group: null })),
        },
      ];
    }
    case 'codex': {
      const events: HookEvent[] = ['SessionStart', 'UserPromptSubmit', 'Stop'];
      return [
        {
          file: path.join(toolHome, 'config.toml'),
          format: 'toml',
          tokenPath: ['mcp_servers', 'reverie', 'env', 'REVERIE_AGENT_TOKEN'],
          // Codex runs hooks.json only with its hooks feature on.
          connect: (launch) => [{ kind: 'set', path: ['mcp_servers', 'reverie'], value: mcpServer(launch) }, { kind: 'flag', table: 'features', key: 'hooks' }],
          disconnect: () => [{ kind: 'unset', path: ['mcp_servers', 'reverie'] }],
        },
        {
          file: path.join(toolHome, 'hooks.json'),
          format: 'json',
          tokenPath: [],
          connect: (launch) => events.map((event) => ({ kind: 'hook', event, group: hookGroup(launch, event, HOOK_TIMEOUT_S) })),
          disconnect: () => events.map((event) => ({ kind: 'hook', event, group: null })),
        },
      ];
    }
    case 'hermes':
      return [
        {
          file: path.join(toolHome, 'config.yaml'),
          format: 'yaml',
          tokenPath: ['mcp_servers', 'reverie', 'env', 'REVERIE_AGENT_TOKEN'],
          connect: (launch) => [{ kind: 'set', path: ['mcp_servers', 'reverie'], value: mcpServer(launch) }],
          disconnect: () => [{ kind: 'unset', path: ['mcp_servers', 'reverie'] }],
        },
      ];
    case 'openclaw':
      return [
        {
          file: path.join(toolHome, 'openclaw.json'),
          format: 'json',
          tokenPath: ['mcp', 'servers', 'reverie', 'env', 'REVERIE_AGENT_TOKEN'],
          connect: (launch) => [{ kind: 'set', path: ['mcp', 'servers', 'reverie'], value: mcpServer(launch) }],
          disconnect: () => [{ kind: 'unset', path: ['mcp', 'servers', 'reverie'] }],
        },
      ];
    default:
      throw new Error(`No configuration is known for ${String(tool)}`);
  }
}
