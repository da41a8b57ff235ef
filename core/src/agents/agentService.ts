import { ReverieError } from '../platform/errors.js';
import type Database from 'better-sqlite3';
import type { OperationOutput, ParsedInput } from '../contract/index.js';
import type { CallContext } from '../contract/index.js';
import { recordWrittenLines } from '../provenance/recordWrites.js';
import { entryOrigin } from '../provenance/lineOrigin.js';
import type { WorkspaceFiles } from '../workspace/workspaceFiles.js';
import { workspaceLockFile } from '../workspace/workspaceLocks.js';
import { AccessLog } from './accessLog.js';
import { agentDatabasePath, openAgentDatabase } from './agentDatabase.js';
import { AgentRegistry } from './agentRegistry.js';
import { buildBootstrapContext } from './context/bootstrap.js';
import { matchCuratedEntries } from './context/contextMatch.js';
import { DailyNoteAppender } from './dailyNoteAppender.js';
import { IntentStore } from './intents/intentStore.js';
import { readMemoryLines } from './memoryGet.js';
import { readSessionExcerpt } from './sessionsGet.js';
import { AgentSocketServer } from './socket/agentSocketServer.js';
import type { Invoke } from './socket/agentCall.js';
import { agentSocketPath } from './socket/socketPath.js';
import { removeOwnerToken, writeOwnerToken } from './socket/ownerToken.js';
import { agentLaunch, mcpLaunchCommand } from './mcp/mcpLaunch.js';
import { EntryEditor } from './entries/entryEditor.js';
import { recentEntries } from './entries/recentEntries.js';
import { ToolConnector } from './connect/toolConnector.js';
import type { Logger } from '../platform/log/logger.js';
import { processLogger } from '../platform/log/processLog.js';

export interface AgentServiceOptions {
  dataDir: string;
  workspaceId: string;
  workspaceRoot: string;
  indexDb: () => Database.Database;
  files: WorkspaceFiles;
  /** A daily note changed: the host re-indexes it. */
  onDidWriteFiles(paths: string[]): void;
  now?: () => number;
  logger?: Logger;
}

type AgentOps =
  | 'memory.get'
  | 'sessions.get'
  | 'memory.store'
  | 'memory.update'
  | 'memory.forget'
  | 'memory.recent'
  | 'agents.proposals'
  | 'agents.decideProposal'
  | 'agents.connect'
  | 'agents.disconnect'
  | 'context.bootstrap'
  | 'context.match'
  | 'intents.create'
  | 'intents.list'
  | 'intents.cancel'
  | 'agents.list'
  | 'agents.add'
  | 'agents.revoke'
  | 'agents.log';
export type AgentHandlers = { [N in AgentOps]: (input: ParsedInput<N>, context: CallContext) => Promise<OperationOutput<N>> };

/**
 * Local agents for one workspace: who they are (hashed tokens, scopes), what they did (the
 * access log), what they may call (the agent-facing operations) and, while a host runs, the
 * socket they connect to.
 */
export class AgentService {
  readonly registry: AgentRegistry;
  readonly log: AccessLog;
  readonly intents: IntentStore;
  readonly notice: string | null;
  /** After a corruption error: the error naming this store when it is the damaged one, else null. */
  readonly explainDamage: (error: unknown) => ReverieError | null;
  readonly handlers: AgentHandlers;
  readonly socketPath: string;
  private readonly db: Database.Database;
  private readonly appender: DailyNoteAppender;
  private readonly editor: EntryEditor;
  private readonly connector: ToolConnector;
  private socket: AgentSocketServer | null = null;
  private readonly logger: Logger;

  constructor(private readonly options: AgentServiceOptions) {
    this.logger = options.logger ?? processLogger('agents');
    const opened = openAgentDatabase(agentDatabasePath(options.dataDir, options.workspaceId));
    this.db = opened.db;
    this.notice = opened.notice;
    this.explainDamage = opened.explainDamage;
    this.registry = new AgentRegistry(this.db);
    this.log = new AccessLog(this.db, this.registry, this.logger.child('accessLog'));
    const now = options.now ?? Date.now;
    this.intents = new IntentStore(this.db, now);
    this.socketPath = agentSocketPath(options.dataDir);
    this.appender = new DailyNoteAppender(options.workspaceRoot, this.db, workspaceLockFile(options.workspaceRoot, 'markdown'), now);
    const root = options.workspaceRoot;
    const lockFile = workspaceLockFile(root, 'markdown');
    this.editor = new EntryEditor({ files: options.files, indexDb: options.indexDb, agentDb: this.db, lockFile, onDidWriteFiles: (paths) => options.onDidWriteFiles(paths), now });
    this.connector = new ToolConnector({ dataDir: options.dataDir, registry: this.registry, agentDb: this.db, launch: agentLaunch(root, options.dataDir) });
    const agentName = (context: CallContext, what: string): string => {
      if (!context.agent) throw new ReverieError('forbidden', `${what} is for agents (their token names who edits); edit your notes in the window or an editor.`);
      return context.agent.name;
    };
    this.handlers = {
      'memory.get': async ({ path: p, from, lines }, context) => readMemoryLines(options.files, options.indexDb(), p, from, lines, context.agent === undefined),
      'sessions.get': async ({ sessionId, fromLine, lines }) => readSessionExcerpt(options.indexDb(), sessionId, fromLine, lines),
      'memory.store': async ({ text, kind, project, importance, triggers }, context) => {
        const agent = context.agent?.name ?? null;
        const { result, written } = await this.appender.append({ text, kind, project, importance, triggers, agent });
        if (written !== null) {
          // The person's own notes need no record: every unrecorded line is theirs.
          if (agent) recordWrittenLines(options.indexDb(), result.path, [written], { origin: 'agent', via: 'agent', actor: agent, detail: kind });
          options.onDidWriteFiles([result.path]);
        }
        return result;
      },
      'memory.update': async ({ ref, text }, context) => this.serialised(() => this.editor.update(ref, text, agentName(context, 'memory.update'))),
      'memory.forget': async ({ ref }, context) => this.serialised(() => this.editor.forget(ref, agentName(context, 'memory.forget'))),
      'memory.recent': async ({ days, project, limit }, context) => {
        const at = now();
        const agentId = context.agent?.id ?? null;
        const look = agentId ? (this.db.prepare('SELECT recent_at FROM agent_looks WHERE agent_id = ?').get(agentId) as { recent_at: string } | undefined) : undefined;
        const answer = recentEntries({ workspaceRoot: root, indexDb: options.indexDb(), history: this.editor.history, days, project, limit, since: look?.recent_at ?? null, now: at });
        if (agentId) this.db.prepare('INSERT OR REPLACE INTO agent_looks (agent_id, recent_at) VALUES (?, ?)').run(agentId, new Date(at).toISOString());
        return answer;
      },
      'agents.proposals': async ({ includeDecided }) => ({ proposals: this.editor.listProposals(includeDecided) }),
      'agents.decideProposal': async ({ id, decision }, context) => {
        if (context.agent) throw new ReverieError('forbidden', 'Only the person decides on proposals (in the window or the CLI).');
        return this.serialised(() => this.editor.decide(id, decision));
      },
      'agents.connect': async ({ tool, scope, projectDir, write, dryRun }) => this.connector.connect(tool, { scope, projectDir, write, dryRun }),
      'agents.disconnect': async ({ tool, scope, projectDir, dryRun }) => this.connector.disconnect(tool, { scope, projectDir, dryRun }),
      'context.bootstrap': async ({ budget, project }) => buildBootstrapContext({ workspaceRoot: root, budget, project }),
      'context.match': async ({ message, project }) => ({
        entries: matchCuratedEntries({ workspaceRoot: root, message, project, originOf: (p, line) => this.originOf(p, line) }),
        intents: this.intents.matchAndFire(message, project),
      }),
      'intents.create': async (input, context) => this.intents.create(input, context.agent?.name ?? null),
      'intents.list': async ({ includeInactive }) => ({ intents: this.intents.list(includeInactive) }),
      'intents.cancel': async ({ id }) => this.intents.cancel(id),
      'agents.list': async () => {
        this.log.flush(); // calls and last use include what was just answered
        return { agents: this.registry.list(), socket: { path: this.socketPath, listening: this.socket?.listening ?? false }, mcpLaunch: mcpLaunchCommand(options.workspaceRoot, options.dataDir) };
      },
      'agents.add': async ({ name, write }) => {
        const { agent, token } = this.registry.add(name, write);
        return { agentId: agent.id, name: agent.name, scopes: agent.scopes, token };
      },
      'agents.revoke': async ({ name }) => this.registry.revoke(name),
      'agents.log': async ({ agent, limit }) => ({ entries: this.log.list(agent, limit) }),
    };
  }

  /** Edits of entries run one at a time in this process (other processes are kept out by the Markdown lock). */
  private edits: Promise<unknown> = Promise.resolve();
  private serialised<T>(work: () => T): Promise<T> {
    const run = this.edits.then(work);
    this.edits = run.catch((error: unknown) => this.logger.debug('An entry edit failed; the next one goes ahead', { error })); // the caller has the error through `run`
    return run;
  }

  private ownerToken: string | null = null;

  /** Hosts only: serve the agent socket for this workspace. */
  async startSocket(invoke: Invoke): Promise<string> {
    const server = new AgentSocketServer({ socketPath: this.socketPath, workspaceRoot: this.options.workspaceRoot, registry: this.registry, log: this.log, invoke, logger: this.logger.child('socket'), ownerToken: () => this.ownerToken });
    this.socket = server;
    await server.start();
    // Only once this host owns the socket: a second host that failed to start must not replace the first one's token.
    this.ownerToken = writeOwnerToken(this.options.dataDir);
    return this.socketPath;
  }

  get socketListening(): boolean {
    return this.socket?.listening ?? false;
  }

  async close(): Promise<void> {
    await this.socket?.close();
    this.socket = null;
    if (this.ownerToken) removeOwnerToken(this.options.dataDir, this.ownerToken);
    this.ownerToken = null;
    this.log.close();
    this.db.close();
  }

  private originOf(p: string, line: number) {
    const text = this.options.files.read(p).text.split(/\r?\n/)[line - 1] ?? '';
    return entryOrigin(this.options.indexDb(), p, 'memory', line, line, [text]).origin;
  }
}
