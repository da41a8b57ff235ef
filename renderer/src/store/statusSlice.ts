import type { RecentLogs, StatusOutput, SyncReport } from '../../../core/src/contract/index.js';
import { MemoryClientError, errorMessage } from '../client/memoryClient.js';
import type { SliceContext } from './types.js';

/** Rows per page of the coverage table: long workspaces page instead of rendering thousands of rows. */
export const COVERAGE_PAGE_SIZE = 200;

export interface StatusSlice {
  data: StatusOutput | null;
  state: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  isSyncing: boolean;
  syncError: string | null;
  lastSyncReport: SyncReport | null;
  /** An index.pause call is on its way. */
  isPausing: boolean;
  pauseError: string | null;
  showOnlyProblems: boolean;
  pathFilter: string;
  page: number;
  /** The engine log's recent warnings and errors (`logs.recent`), for the panel and bug reports. */
  engineLog: RecentLogs | null;
  engineLogError: string | null;

  refresh(): Promise<void>;
  reindex(force: boolean): Promise<void>;
  /** Pause (file changes wait) or resume indexing. */
  setIndexingPaused(paused: boolean): Promise<void>;
  setShowOnlyProblems(value: boolean): void;
  setPathFilter(value: string): void;
  setPage(page: number): void;
  loadEngineLog(): Promise<void>;
}

export function createStatusSlice({ set, get, client }: SliceContext<'status'>): StatusSlice {
  let latestRequest = 0;
  let latestLogRequest = 0;

  return {
    data: null,
    state: 'idle',
    error: null,
    isSyncing: false,
    syncError: null,
    lastSyncReport: null,
    isPausing: false,
    pauseError: null,
    showOnlyProblems: false,
    pathFilter: '',
    page: 0,
    engineLog: null,
    engineLogError: null,

    async refresh() {
      const request = ++latestRequest;
      const epoch = get().app.eventEpoch;
      if (!get().status.data) set({ state: 'loading' });
      try {
        const data = await client.call('status', {});
        if (request !== latestRequest) return;
        set({ data, state: 'ready', error: null });
        get().app.setConnection(true, null);
        get().app.applyStatusIndexState(data.index.state, data.index.lastError, epoch);
        get().app.applyStatusEmbedding(data.embedding.running, epoch);
        get().app.applyStatusPaused(data.index.paused, epoch);
      } catch (error) {
        if (request !== latestRequest) return;
        set({ state: 'error', error: errorMessage(error) });
        const isUnreachable = error instanceof MemoryClientError && (error.code === 'network' || error.code === 'unauthenticated');
        if (isUnreachable) get().app.setConnection(false, error.message);
      }
    },

    async reindex(force) {
      if (get().status.isSyncing) return;
      set({ isSyncing: true, syncError: null });
      try {
        const report = await client.call('index.sync', { force });
        set({ isSyncing: false, lastSyncReport: report });
      } catch (error) {
        set({ isSyncing: false, syncError: errorMessage(error) });
      }
      await get().status.refresh();
    },

    async setIndexingPaused(paused) {
      if (get().status.isPausing) return;
      set({ isPausing: true, pauseError: null });
      try {
        const answer = await client.call('index.pause', { paused });
        get().app.setIndexingPaused(answer.paused);
        set({ isPausing: false });
      } catch (error) {
        set({ isPausing: false, pauseError: errorMessage(error) });
      }
    },

    setShowOnlyProblems(showOnlyProblems) {
      set({ showOnlyProblems, page: 0 });
    },

    setPathFilter(pathFilter) {
      set({ pathFilter, page: 0 });
    },

    setPage(page) {
      set({ page: Math.max(0, page) });
    },

    async loadEngineLog() {
      const request = ++latestLogRequest;
      try {
        const engineLog = await client.call('logs.recent', {});
        if (request === latestLogRequest) set({ engineLog, engineLogError: null });
      } catch (error) {
        // The last answer stays on screen; the panel says why it could not be refreshed.
        if (request === latestLogRequest) set({ engineLogError: errorMessage(error) });
      }
    },
  };
}
