import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Intent, OperationOutput, OriginClass } from '../../contract/index.js';
import { AccessLog } from '../../agents/accessLog.js';
import { agentDatabasePath, openAgentDatabase } from '../../agents/agentDatabase.js';
import { AgentRegistry } from '../../agents/agentRegistry.js';
import { buildBootstrapContext } from '../../agents/context/bootstrap.js';
import { matchCuratedEntries } from '../../agents/context/contextMatch.js';
import { frameMemory } from '../../agents/framing.js';
import { IntentStore } from '../../agents/intents/intentStore.js';
import { lineHash } from '../../provenance/lineHash.js';
import { workspaceIdFor } from '../../workspace/resolveWorkspace.js';
import { processLogger } from '../../platform/log/processLog.js';

const log = processLogger('cli/hook');

/**
 * A hook with no host running: the curated files are read directly and the standing intents
 * come from the agents store, without opening the index or starting the engine (the person's
 * files are the source of truth; provenance comes from the index file read-only when it exists).
 */
export class LocalHook {
  private readonly agentDb: Database.Database;
  private readonly registry: AgentRegistry;
  private readonly agent: { id: string; name: string };

  constructor(
    private readonly dataDir: string,
    private readonly workspaceRoot: string,
    token: string,
  ) {
    const file = agentDatabasePath(dataDir, workspaceIdFor(workspaceRoot));
    if (!fs.existsSync(file)) throw new Error(`no agents store at ${file}: no agent has a token for this workspace`);
    this.agentDb = openAgentDatabase(file).db;
    this.registry = new AgentRegistry(this.agentDb);
    this.agent = this.registry.authenticate(token);
  }

  bootstrap(budget: number, project: string | null): { context: OperationOutput<'context.bootstrap'>; armed: Intent[] } {
    const context = buildBootstrapContext({ workspaceRoot: this.workspaceRoot, budget, project: project ?? undefined });
    const armed = new IntentStore(this.agentDb, Date.now).list(false).filter((i) => i.status === 'armed');
    this.log('context.bootstrap', project, context.files.length);
    return { context, armed };
  }

  match(message: string, project: string | null): { entries: Array<{ path: string; line: number; text: string }>; intents: Intent[] } {
    const index = this.openIndex();
    try {
      const originOf = (p: string, line: number): OriginClass => {
        const text = fs.readFileSync(path.join(this.workspaceRoot, p), 'utf8').split(/\r?\n/)[line - 1] ?? '';
        const row = index?.prepare('SELECT origin FROM line_provenance WHERE path = ? AND line_hash = ?').get(p, lineHash(text)) as { origin: OriginClass } | undefined;
        return row?.origin ?? 'owner';
      };
      const entries = matchCuratedEntries({ workspaceRoot: this.workspaceRoot, message, project: project ?? undefined, originOf }).map((e) => ({ ...e, text: frameMemory(e.text, { source: `${e.path}:${e.line}`, origin: e.origin }) }));
      const intents = new IntentStore(this.agentDb, Date.now).matchAndFire(message, project ?? undefined);
      this.log('context.match', message, entries.length + intents.length);
      return { entries, intents };
    } finally {
      index?.close();
    }
  }

  close(): void {
    this.agentDb.close();
  }

  /** The index, read-only, only for line provenance; none yet means every curated line is the person's. */
  private openIndex(): Database.Database | null {
    const file = path.join(this.dataDir, 'index', `${workspaceIdFor(this.workspaceRoot)}.sqlite`);
    if (!fs.existsSync(file)) return null;
    try {
      return new Database(file, { readonly: true, fileMustExist: true });
    } catch (error) {
      log.debug('locked or damaged: the host or the next command deals with it', { error });
      return null;
    }
  }

  private log(method: string, detail: string | null, results: number): void {
    const log = new AccessLog(this.agentDb, this.registry);
    log.record({ agentId: this.agent.id, agentName: this.agent.name, at: new Date().toISOString(), method, detail, results, ok: true, error: null, durationMs: 0, transport: 'socket' });
    log.close();
  }
}
