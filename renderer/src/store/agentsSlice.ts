import type { AccessLogEntry, AgentInfo, OperationOutput } from '../../../core/src/contract/index.js';
import { errorMessage } from '../client/memoryClient.js';
import type { SliceContext } from './types.js';

export type CreatedAgent = OperationOutput<'agents.add'>;
export type AgentSocketInfo = OperationOutput<'agents.list'>['socket'];
export type McpLaunch = OperationOutput<'agents.list'>['mcpLaunch'];
export type BootstrapPreview = OperationOutput<'context.bootstrap'>;
export type ConnectResult = OperationOutput<'agents.connect'> | OperationOutput<'agents.disconnect'>;
export type EditProposal = OperationOutput<'agents.proposals'>['proposals'][number];

type LoadState = 'idle' | 'loading' | 'ready' | 'error';

/** Access-log rows asked for at first, and how many more each "show more" adds. */
export const LOG_PAGE_SIZE = 50;
/** The engine answers at most this many rows per `agents.log` call. */
export const LOG_MAX_LIMIT = 2000;
export const DEFAULT_BOOTSTRAP_BUDGET = 24_000;

export interface AgentsSlice {
  agents: AgentInfo[] | null;
  socket: AgentSocketInfo | null;
  /** How `reverie mcp` starts on this machine, for the setup snippets. */
  mcpLaunch: McpLaunch | null;
  listState: LoadState;
  listError: string | null;

  /** The add form. */
  addName: string;
  addWrite: boolean;
  addState: 'idle' | 'adding' | 'error';
  /** The engine's refusal (e.g. an invalid name), shown under the name field. */
  addError: string | null;
  /**
   * The agent just created, with its token: shown once, then dropped for good (dismissed, or
   * when leaving the view). The engine keeps only a hash.
   */
  created: CreatedAgent | null;

  /** The agent being revoked right now. */
  revoking: string | null;
  revokeError: string | null;

  log: AccessLogEntry[];
  logState: LoadState;
  logError: string | null;
  /** Only this agent's calls, or every agent's (null). */
  logAgent: string | null;
  /** Rows asked for; "show more" raises it. */
  logLimit: number;
  /** The last answer filled the limit: there may be older rows. */
  logHasMore: boolean;

  /** The tool being connected or disconnected right now. */
  connecting: string | null;
  /** What the last connect or disconnect wrote (or would write), per file. */
  connectResult: ConnectResult | null;
  connectError: string | null;

  /** Agents' proposed corrections of the person's lines. */
  proposals: EditProposal[];
  proposalsError: string | null;
  deciding: string | null;

  bootstrapBudget: number;
  bootstrapProject: string;
  bootstrap: BootstrapPreview | null;
  bootstrapState: LoadState;
  bootstrapError: string | null;

  /** Agents and the access log (when the view opens). */
  load(): Promise<void>;
  loadList(): Promise<void>;
  setAddName(name: string): void;
  setAddWrite(write: boolean): void;
  /** Creates the agent named in the form; its token lands in `created`. */
  add(): Promise<void>;
  /** Forgets the token on screen. */
  dismissToken(): void;
  /** Asks first; refused calls follow from then on. */
  revoke(name: string): Promise<void>;
  /** Writes the tool's own configuration (its MCP server with a new token, its hooks); `dryRun` only shows the diff. */
  connect(tool: string, dryRun: boolean): Promise<void>;
  /** Asks first; puts the tool's files back and revokes its token. */
  disconnect(tool: string): Promise<void>;
  loadProposals(): Promise<void>;
  decideProposal(id: string, decision: 'accept' | 'reject'): Promise<void>;
  loadLog(): Promise<void>;
  setLogAgent(agent: string | null): Promise<void>;
  showMoreLog(): Promise<void>;
  setBootstrapBudget(budget: number): void;
  setBootstrapProject(project: string): void;
  previewBootstrap(): Promise<void>;
  /** The view is left: the token must not survive it. */
  onLeave(): void;
}

/**
 * The engine's validation message without its `operation: field "x": ` prefixes
 * (`agents.add: field "name": name may use …` → `name may use …`).
 */
export function plainEngineMessage(message: string): string {
  return message.replace(/(^|; )[\w.]+: field "[^"]*": /g, '$1');
}

/** A revoked agent whose name was reused keeps its rows under `name~revoked~id`: show the name. */
export function displayAgentName(name: string): string {
  const at = name.indexOf('~revoked~');
  return at === -1 ? name : name.slice(0, at);
}

export function createAgentsSlice({ set, get, client, confirm }: SliceContext<'agents'>): AgentsSlice {
  const slice = (): AgentsSlice => get().agents;
  let latestList = 0;
  let latestLog = 0;
  let latestBootstrap = 0;
  /** Bumped when the token must go: an `agents.add` answering later must not bring it back on screen. */
  let tokenEpoch = 0;

  return {
    agents: null,
    socket: null,
    mcpLaunch: null,
    listState: 'idle',
    listError: null,
    addName: '',
    addWrite: false,
    addState: 'idle',
    addError: null,
    created: null,
    revoking: null,
    revokeError: null,
    log: [],
    logState: 'idle',
    logError: null,
    logAgent: null,
    logLimit: LOG_PAGE_SIZE,
    logHasMore: false,
    connecting: null,
    connectResult: null,
    connectError: null,
    proposals: [],
    proposalsError: null,
    deciding: null,
    bootstrapBudget: DEFAULT_BOOTSTRAP_BUDGET,
    bootstrapProject: '',
    bootstrap: null,
    bootstrapState: 'idle',
    bootstrapError: null,

    async load() {
      await Promise.all([slice().loadList(), slice().loadLog(), slice().loadProposals()]);
    },

    async connect(tool, dryRun) {
      if (slice().connecting) return;
      set({ connecting: tool, connectError: null });
      try {
        const connectResult = await client.call('agents.connect', { tool, dryRun });
        set({ connecting: null, connectResult });
      } catch (error) {
        set({ connecting: null, connectError: plainEngineMessage(errorMessage(error)) });
      }
      await slice().loadList();
    },

    async disconnect(tool) {
      if (slice().connecting) return;
      if (!confirm(`Disconnect ${tool}? Its configuration goes back to how it was (or loses Reverie's entries) and its token is revoked.`)) return;
      set({ connecting: tool, connectError: null });
      try {
        const connectResult = await client.call('agents.disconnect', { tool });
        set({ connecting: null, connectResult });
      } catch (error) {
        set({ connecting: null, connectError: plainEngineMessage(errorMessage(error)) });
      }
      await slice().loadList();
    },

    async loadProposals() {
      try {
        const { proposals } = await client.call('agents.proposals', {});
        set({ proposals, proposalsError: null });
      } catch (error) {
        set({ proposalsError: plainEngineMessage(errorMessage(error)) });
      }
    },

    async decideProposal(id, decision) {
      if (slice().deciding) return;
      set({ deciding: id, proposalsError: null });
      try {
        await client.call('agents.decideProposal', { id, decision });
      } catch (error) {
        set({ proposalsError: plainEngineMessage(errorMessage(error)) });
      }
      set({ deciding: null });
      await slice().loadProposals();
    },

    async loadList() {
      const request = ++latestList;
      if (slice().listState !== 'ready') set({ listState: 'loading' });
      try {
        const { agents, socket, mcpLaunch } = await client.call('agents.list', {});
        if (request !== latestList) return;
        set({ agents, socket, mcpLaunch, listState: 'ready', listError: null });
      } catch (error) {
        if (request !== latestList) return;
        set({ listState: 'error', listError: errorMessage(error) });
      }
    },

    setAddName(addName) {
      set({ addName, ...(slice().addState === 'error' ? { addState: 'idle', addError: null } : {}) });
    },

    setAddWrite(addWrite) {
      set({ addWrite });
    },

    async add() {
      const { addName, addWrite, addState } = slice();
      if (addState === 'adding') return;
      const epoch = ++tokenEpoch;
      set({ addState: 'adding', addError: null, created: null });
      try {
        const created = await client.call('agents.add', { name: addName.trim(), write: addWrite });
        if (epoch !== tokenEpoch) {
          set({ addState: 'idle' });
        } else {
          set({ addState: 'idle', created, addName: '', addWrite: false });
        }
      } catch (error) {
        set({ addState: 'error', addError: plainEngineMessage(errorMessage(error)) });
        return;
      }
      await slice().loadList();
    },

    dismissToken() {
      tokenEpoch++;
      if (slice().created) set({ created: null });
    },

    async revoke(name) {
      if (slice().revoking) return;
      const shown = displayAgentName(name);
      if (!confirm(`Revoke the token of "${shown}"? Its calls are refused from then on; the access log is kept.`)) return;
      set({ revoking: name, revokeError: null });
      try {
        const revoked = await client.call('agents.revoke', { name });
        set((s) => ({ revoking: null, agents: s.agents?.map((a) => (a.id === revoked.id ? revoked : a)) ?? s.agents }));
      } catch (error) {
        set({ revoking: null, revokeError: `Could not revoke "${shown}": ${plainEngineMessage(errorMessage(error))}` });
      }
      await slice().loadList();
    },

    async loadLog() {
      const request = ++latestLog;
      const { logAgent, logLimit } = slice();
      set({ logState: 'loading' });
      try {
        const { entries } = await client.call('agents.log', { ...(logAgent ? { agent: logAgent } : {}), limit: logLimit });
        if (request !== latestLog) return;
        set({ log: entries, logState: 'ready', logError: null, logHasMore: entries.length >= logLimit && logLimit < LOG_MAX_LIMIT });
      } catch (error) {
        if (request !== latestLog) return;
        set({ logState: 'error', logError: plainEngineMessage(errorMessage(error)) });
      }
    },

    async setLogAgent(logAgent) {
      if (slice().logAgent === logAgent) return;
      set({ logAgent, logLimit: LOG_PAGE_SIZE, log: [], logHasMore: false });
      await slice().loadLog();
    },

    async showMoreLog() {
      const { logLimit, logHasMore } = slice();
      if (!logHasMore) return;
      set({ logLimit: Math.min(LOG_MAX_LIMIT, logLimit + LOG_PAGE_SIZE * 2) });
      await slice().loadLog();
    },

    setBootstrapBudget(bootstrapBudget) {
      set({ bootstrapBudget });
    },

    setBootstrapProject(bootstrapProject) {
      set({ bootstrapProject });
    },

    async previewBootstrap() {
      const request = ++latestBootstrap;
      const { bootstrapBudget, bootstrapProject } = slice();
      const project = bootstrapProject.trim();
      set({ bootstrapState: 'loading', bootstrapError: null });
      try {
        const bootstrap = await client.call('context.bootstrap', { budget: bootstrapBudget, ...(project ? { project } : {}) });
        if (request !== latestBootstrap) return;
        set({ bootstrap, bootstrapState: 'ready' });
      } catch (error) {
        if (request !== latestBootstrap) return;
        set({ bootstrapState: 'error', bootstrapError: plainEngineMessage(errorMessage(error)) });
      }
    },

    onLeave() {
      slice().dismissToken();
      if (slice().addState === 'error') set({ addState: 'idle', addError: null });
    },
  };
}
