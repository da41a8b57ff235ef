import { isRecord } from './jsonFields.js';
import type { TranscriptFormat } from './types.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('sessions/tools');

/**
 * Where a tool's result comes from. `network` results taint the rest of the turn (issue 4's taint
 * rule); anything not known to be local is `network`.
 */
export type ToolSource = 'local' | 'network';

/** How a tool name is judged: fixed, by its shell command, or as a sub-agent (which may browse). */
type ToolRule = 'local' | 'network' | 'shell' | 'subagent';

const CLAUDE_CODE_TOOLS: Readonly<Record<string, ToolRule>> = {
  Read: 'local',
  Write: 'local',
  Edit: 'local',
  MultiEdit: 'local',
  NotebookRead: 'local',
  NotebookEdit: 'local',
  Glob: 'local',
  Grep: 'local',
  LS: 'local',
  TodoRead: 'local',
  TodoWrite: 'local',
  TaskCreate: 'local',
  TaskUpdate: 'local',
  TaskList: 'local',
  TaskGet: 'local',
  EnterPlanMode: 'local',
  ExitPlanMode: 'local',
  AskUserQuestion: 'local',
  Skill: 'local',
  SlashCommand: 'local',
  KillShell: 'local',
  KillBash: 'local',
  Bash: 'shell',
  // Output of a background shell: the command is not on this call, so it is not known to be local.
  BashOutput: 'network',
  WebFetch: 'network',
  WebSearch: 'network',
  ListMcpResourcesTool: 'network',
  ReadMcpResourceTool: 'network',
  Task: 'subagent',
  Agent: 'subagent',
  TaskOutput: 'subagent',
  // Server-side tools (`server_tool_use` blocks).
  web_search: 'network',
  web_fetch: 'network',
};

const CODEX_TOOLS: Readonly<Record<string, ToolRule>> = {
  shell: 'shell',
  shell_command: 'shell',
  exec_command: 'shell',
  local_shell: 'shell',
  'container.exec': 'shell',
  // Continues an exec_command session; that command's first output already tainted if it fetched.
  write_stdin: 'local',
  apply_patch: 'local',
  update_plan: 'local',
  view_image: 'local',
  read_file: 'local',
  list_dir: 'local',
  grep_files: 'local',
  request_user_input: 'local',
  tool_search: 'local',
  web_search: 'network',
  spawn_agent: 'subagent',
  send_input: 'subagent',
  wait: 'subagent',
  resume_agent: 'subagent',
  close_agent: 'subagent',
};

const OPENCLAW_TOOLS: Readonly<Record<string, ToolRule>> = {
  read: 'local',
  write: 'local',
  edit: 'local',
  apply_patch: 'local',
  process: 'local',
  memory_search: 'local',
  memory_get: 'local',
  session_status: 'local',
  sessions_list: 'local',
  agents_list: 'local',
  cron: 'local',
  tts: 'local',
  exec: 'shell',
  bash: 'shell',
  web_search: 'network',
  web_fetch: 'network',
  browser: 'network',
  // Can read channel messages written by other people.
  message: 'network',
  nodes: 'network',
  sessions_history: 'subagent',
  sessions_send: 'subagent',
  sessions_spawn: 'subagent',
};

const TOOL_TABLES: Readonly<Record<TranscriptFormat, Readonly<Record<string, ToolRule>>>> = {
  'claude-code-jsonl': CLAUDE_CODE_TOOLS,
  'codex-rollout': CODEX_TOOLS,
  'openclaw-jsonl': OPENCLAW_TOOLS,
};

/** MCP servers whose results are local by construction: Reverie's own memory server. */
export const DEFAULT_LOCAL_MCP_SERVERS: readonly string[] = ['reverie'];

export interface ToolClassifyOptions {
  localMcpServers?: readonly string[];
}

/** Server part of an MCP tool name: `mcp__server__tool` (Claude Code, Codex) or `server__tool` (Codex). */
export function mcpServerOf(name: string): string | null {
  const parts = name.split('__');
  if (parts[0] === 'mcp' && parts.length >= 3) return parts[1] ?? null;
  if (parts.length >= 2 && parts[0] !== '') return parts[0] ?? null;
  return null;
}

/** Classifies one tool call by tool name and input; unknown tools are `network`. */
export function classifyToolCall(format: TranscriptFormat, name: string, input: unknown, options: ToolClassifyOptions = {}): ToolSource {
  const table = TOOL_TABLES[format];
  const rule = Object.hasOwn(table, name) ? table[name] : undefined;
  if (rule === 'local' || rule === 'network') return rule;
  if (rule === 'subagent') return 'network';
  if (rule === 'shell') {
    const command = shellCommandOf(input);
    return command !== null && !isNetworkShellCommand(command) ? 'local' : 'network';
  }
  const server = mcpServerOf(name);
  const localServers = options.localMcpServers ?? DEFAULT_LOCAL_MCP_SERVERS;
  if (server !== null && localServers.includes(server)) return 'local';
  return 'network';
}

/** The command string of a shell tool's input: `{command: string | string[]}` or `{cmd}`, or a JSON string of those. */
export function shellCommandOf(input: unknown): string | null {
  let value = input;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch (error) {
      // A plain command line, not JSON: that is the command.
      log.debug('A shell tool input is plain text', { error });
      return value as string;
    }
  }
  if (Array.isArray(value)) return value.every((v) => typeof v === 'string') ? value.join(' ') : null;
  if (!isRecord(value)) return null;
  const command = value.command ?? value.cmd;
  if (typeof command === 'string') return command;
  if (Array.isArray(command) && command.every((v) => typeof v === 'string')) return command.join(' ');
  return null;
}

// Programs whose output is content fetched from elsewhere.
const NETWORK_PROGRAMS = new Set([
  'curl', 'wget', 'http', 'https', 'xh', 'httpie', 'aria2c', 'lynx', 'w3m', 'links', 'elinks', 'fetch',
  'nc', 'ncat', 'netcat', 'telnet', 'ssh', 'scp', 'sftp', 'ftp', 'rsync', 'gh', 'glab', 'hub', 'whois',
  'dig', 'nslookup', 'aws', 'gcloud', 'az', 'yt-dlp', 'youtube-dl', 'invoke-webrequest', 'invoke-restmethod',
  'iwr', 'irm',
]);
const NETWORK_SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = {
  git: ['clone', 'fetch', 'pull', 'ls-remote', 'submodule'],
  npm: ['view', 'info', 'show', 'search'],
  pnpm: ['view', 'info'],
  yarn: ['info', 'npm'],
  pip: ['download', 'search'],
};
// Words that run the next word as the command.
const COMMAND_WRAPPERS = new Set(['sudo', 'env', 'time', 'nohup', 'xargs', 'command', 'exec', 'timeout', 'nice', 'stdbuf', 'doas']);
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'fish', 'pwsh', 'powershell', 'cmd', 'cmd.exe']);
// A non-loopback URL, or a scripting one-liner that opens one.
const REMOTE_URL = /\b(?:https?|ftp|wss?):\/\/(?!(?:localhost|127\.0\.0\.1|\[::1\]|0\.0\.0\.0)(?:[:/]|$))/i;
const SCRIPTED_FETCH = /\b(?:requests\.(?:get|post|put|request)|urllib\.request|urlopen|http\.client|httpx\.|fetch\(|axios|https?\.get\(|Net::HTTP|LWP::|WebClient|open-uri)/;

/** Heuristic: does this shell command fetch something from the network (curl, wget, gh, a URL, …)? */
export function isNetworkShellCommand(command: string): boolean {
  if (REMOTE_URL.test(command) || SCRIPTED_FETCH.test(command)) return true;
  for (const segment of command.split(/\|\||&&|[;&|\n`()]|\$\(/)) {
    const words = segment.replace(/["']/g, ' ').split(/\s+/).filter((w) => w !== '');
    let i = 0;
    for (;;) {
      const word = words[i];
      if (word === undefined) break;
      const lower = word.toLowerCase();
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word) || word.startsWith('-') || /^\d+[smh]?$/.test(word) || COMMAND_WRAPPERS.has(lower)) {
        i += 1;
        continue;
      }
      if (SHELLS.has(lower.split('/').pop() ?? lower)) {
        i += 1;
        while (words[i] !== undefined && (words[i]!.startsWith('-') || words[i]!.toLowerCase() === '/c')) i += 1;
        continue;
      }
      break;
    }
    const program = (words[i] ?? '').split(/[\\/]/).pop()?.toLowerCase() ?? '';
    if (NETWORK_PROGRAMS.has(program)) return true;
    const subcommands = NETWORK_SUBCOMMANDS[program];
    if (subcommands && words.slice(i + 1).some((w) => subcommands.includes(w))) return true;
  }
  return false;
}
