/**
 * The agent tools Reverie knows, one entry each. Everything tool-specific derives from this
 * table: where a tool's home folder is, how its transcripts are read, how its memory is
 * imported, its graph ring colour, its CLI flag, its label in the window, and the contract's
 * enums of tool ids. Adding a tool is one entry here (plus, for a format Reverie cannot read
 * yet, its detector or parser: see docs/ARCHITECTURE.md, "Adding an agent tool").
 *
 * Data only (the renderer reads it too): no Node, no engine code.
 */

/** How a tool's transcripts are found in its home and parsed (parsers live in core/src/sessions). */
export type TranscriptFormat = 'codex-rollout' | 'claude-code-jsonl' | 'openclaw-jsonl';

/** How a tool's memory files are found and split into entries (detectors live in core/src/importers). */
export type ImportFormat = 'codex-memories' | 'claude-code-projects' | 'hermes-memories';

/** Where an agent's MCP server is configured: the window shows a snippet in this format. */
export type McpConfigFormat = 'claude-code-cli' | 'codex-toml' | 'hermes-yaml' | 'openclaw-json';

export interface ToolHomeRule {
  /** Environment variable naming the home folder, when the tool has one (`CODEX_HOME`). */
  env: string | null;
  /** The default folder, relative to the user's home, `/`-separated (`.codex`). */
  default: string;
  /** On Windows, when the tool keeps its home under %LOCALAPPDATA% instead: the folder there. */
  windowsLocalAppData?: string;
}

export interface AgentToolSpec {
  /** The one spelling everywhere: settings, index paths (`sessions/<id>/…`, `memory/imports/<id>/…`), the API. */
  readonly id: string;
  readonly label: string;
  readonly home: ToolHomeRule;
  /** Its session transcripts, ingested as searchable evidence; null: Reverie reads none. */
  readonly transcripts: TranscriptFormat | null;
  /** Its own memory files, which Reverie can import; null: nothing to import. */
  readonly imports: ImportFormat | null;
  /** How the person connects it to Reverie's MCP server; null: no snippet. */
  readonly mcpConfig: { format: McpConfigFormat; where: string } | null;
  /** Ring colour of entities whose evidence came from this tool's imported memory (graph view). */
  readonly ringColor: string;
  /** Command-line flag naming its home folder: `reverie sessions ingest --<flag> DIR`. */
  readonly cliFlag: string;
}

const BUILT_IN_TOOLS: readonly AgentToolSpec[] = [
  {
    id: 'codex',
    label: 'Codex',
    home: { env: 'CODEX_HOME', default: '.codex' },
    transcripts: 'codex-rollout',
    imports: 'codex-memories',
    mcpConfig: { format: 'codex-toml', where: 'Add this to ~/.codex/config.toml:' },
    ringColor: '#111111',
    cliFlag: 'codex',
  },
  {
    id: 'claude-code',
    label: 'Claude Code',
    home: { env: null, default: '.claude' },
    transcripts: 'claude-code-jsonl',
    imports: 'claude-code-projects',
    mcpConfig: { format: 'claude-code-cli', where: 'Run this once in a terminal:' },
    ringColor: '#d97706',
    cliFlag: 'claude',
  },
  {
    id: 'hermes',
    label: 'Hermes',
    home: { env: 'HERMES_HOME', default: '.hermes', windowsLocalAppData: 'hermes' },
    transcripts: null,
    imports: 'hermes-memories',
    mcpConfig: { format: 'hermes-yaml', where: 'Add this MCP server to its config (mcp_servers in ~/.hermes/config.yaml), then restart Hermes:' },
    ringColor: '#7c3aed',
    cliFlag: 'hermes',
  },
  {
    id: 'openclaw',
    label: 'OpenClaw',
    home: { env: null, default: '.openclaw' },
    transcripts: 'openclaw-jsonl',
    imports: null,
    mcpConfig: { format: 'openclaw-json', where: 'Add this MCP server to its config (mcp.servers in ~/.openclaw/openclaw.json), then reload the gateway:' },
    ringColor: '#0e7490',
    cliFlag: 'openclaw',
  },
];

/** The graph's source for evidence in the person's own notes (not an imported tool). */
export const WORKSPACE_SOURCE = 'workspace';

const registered: AgentToolSpec[] = [...BUILT_IN_TOOLS];
/** Set once the contract has built its enums from the table: later registrations would not be seen. */
let sealed = false;

const TOOL_ID = /^[a-z][a-z0-9-]{0,31}$/;

/**
 * Adds a tool at start-up, before anything reads the contract (its enums are built from this
 * table when the contract's records load). Tests use it to prove a new tool needs nothing else.
 */
export function registerAgentTool(spec: AgentToolSpec): void {
  if (sealed) throw new Error(`Agent tool "${spec.id}" registered after the contract was built: register tools before importing the contract.`);
  if (!TOOL_ID.test(spec.id) || spec.id === WORKSPACE_SOURCE) throw new Error(`Agent tool id "${spec.id}" must be lowercase letters, digits and "-" (and not "${WORKSPACE_SOURCE}").`);
  if (registered.some((t) => t.id === spec.id)) throw new Error(`Agent tool "${spec.id}" is registered already.`);
  if (registered.some((t) => t.cliFlag === spec.cliFlag)) throw new Error(`Agent tool "${spec.id}": the flag --${spec.cliFlag} belongs to another tool.`);
  registered.push(spec);
}

export function agentTools(): readonly AgentToolSpec[] {
  return registered;
}

export function agentTool(id: string): AgentToolSpec | undefined {
  return registered.find((t) => t.id === id);
}

/** Tools whose transcripts Reverie ingests. */
export function transcriptTools(): readonly AgentToolSpec[] {
  return registered.filter((t) => t.transcripts !== null);
}

/** Tools whose memory Reverie imports. */
export function importTools(): readonly AgentToolSpec[] {
  return registered.filter((t) => t.imports !== null);
}

/** The ids of `tools` as a zod enum's values; seals the table (see registerAgentTool). */
export function toolIds(tools: readonly AgentToolSpec[]): [string, ...string[]] {
  sealed = true;
  const ids = tools.map((t) => t.id);
  if (ids.length === 0) throw new Error('No agent tools are registered.');
  return [ids[0]!, ...ids.slice(1)];
}

/** A tool's label for people, or the id itself for one this version does not know. */
export function toolLabel(id: string): string {
  return agentTool(id)?.label ?? id;
}
