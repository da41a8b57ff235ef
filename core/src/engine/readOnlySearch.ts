import path from 'node:path';
import type { OperationInput, OperationOutput } from '../contract/index.js';
import { dreamDatabasePath, openDreamDatabase } from '../dreaming/dreamDatabase.js';
import { RecallRecorder } from '../dreaming/recall/recallRecorder.js';
import { IndexService } from '../index/indexService.js';
import { ModelStore } from '../models/modelStore.js';
import { ReverieError } from '../platform/errors.js';
import { Notices } from '../platform/notices.js';
import type { SideDatabase } from '../platform/sideDatabase.js';
import { SearchService } from '../search/searchService.js';
import type { ResolvedWorkspace } from '../workspace/resolveWorkspace.js';
import { SettingsStore } from '../workspace/settingsStore.js';
import { startEngineLogging, type EngineLogging } from './engineLogging.js';
import { operationDispatch, type OperationDispatch } from './invoke.js';

/**
 * `memory.search` over the index as the last sync left it, for one command (`reverie search`
 * without a host): the index read-only, the search service, and dreaming's recall recorder (a
 * search is a recall signal here as in a host). The rest of the engine is neither built nor
 * loaded: MemoryService builds every feature and, with them, ~1 MB of modules whose loading
 * cost more than the search (issue 24). The parts are MemoryService's, wired the same way, so a
 * search answers what a host answers. Opening throws IndexUnreadableError for an index that
 * cannot be read as it is (the caller then opens a MemoryService, which creates or rebuilds it).
 */
export class ReadOnlySearch {
  private readonly logging: EngineLogging;
  private readonly index: IndexService;
  private readonly dreams: SideDatabase;
  private readonly recorder: RecallRecorder;
  private readonly search: SearchService;
  private readonly calls: OperationDispatch;
  private closed = false;

  constructor(options: { dataDir: string; workspace: ResolvedWorkspace }) {
    const { dataDir, workspace } = options;
    const notices = new Notices();
    this.logging = startEngineLogging(dataDir, notices);
    const log = this.logging.log;
    const settings = new SettingsStore(dataDir);
    const indexPath = path.join(dataDir, 'index', `${workspace.id}.sqlite`);
    try {
      this.index = new IndexService({
        indexPath,
        workspaceRoot: workspace.root,
        settings,
        models: new ModelStore({ dataDir, logger: log.logger('models') }),
        notices,
        logger: log.logger('index'),
        emit: () => {},
        steps: NO_SYNC_STEPS,
        readOnly: true,
      });
    } catch (error) {
      void this.logging.close();
      throw error;
    }
    this.dreams = openDreamDatabase(dreamDatabasePath(dataDir, workspace.id));
    this.recorder = new RecallRecorder(this.dreams.db, () => this.index.db, workspace.root);
    this.search = new SearchService({
      index: this.index,
      indexPath,
      settings,
      notices,
      logger: log.logger('search'),
      afterSearch: null,
      onDidSearch: (query, results, transport) => this.recorder.record(query, results, transport),
      graphEntities: () => {
        throw new ReverieError('internal', 'A read-only search has no graph; --graph opens the whole engine.');
      },
    });
    this.calls = operationDispatch(this.search.handlers, this.logging.logger, () => this.closed);
  }

  /** What `MemoryService.invoke('memory.search', …)` answers (the input and output checked against the contract). */
  invoke(input: OperationInput<'memory.search'>): Promise<OperationOutput<'memory.search'>> {
    return this.calls.typed('memory.search', input).catch((error: unknown) => {
      throw this.dreams.explainDamage(error) ?? error;
    });
  }

  /** Writes the recall signals of the searches answered, then closes the stores and the log. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.recorder.close();
    this.dreams.db.close();
    await this.search.close();
    await this.index.close();
    await this.logging.close();
  }
}

/** A read-only index never syncs (IndexService refuses to), so no step of a sync is ever asked for. */
const NO_SYNC_STEPS = {
  ingestSessions: () => Promise.reject(new Error('A read-only index is never synced.')),
  afterReady: () => Promise.reject(new Error('A read-only index is never synced.')),
  derivedBacklog: () => ({ done: 0, total: 0 }),
  derivedSettled: () => true,
};
