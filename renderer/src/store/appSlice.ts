import type { DerivedProgress, EngineEvent, IndexState, SyncReport } from '../../../core/src/contract/index.js';
import type { SettingsSection } from '../routing/route.js';
import type { SliceContext } from './types.js';

export const VIEWS = ['search', 'memory', 'imports', 'dreams', 'graph', 'agents', 'status', 'settings'] as const;
export type View = (typeof VIEWS)[number];

/** Menu and tray commands name views by these ids; anything else is ignored. */
export function isView(name: string | null): name is View {
  return (VIEWS as readonly (string | null)[]).includes(name);
}

/**
 * The desktop engine process, from `engine-state` events. `reason` says why it is not running:
 * a crash (reload the data when it is back) or the workspace the person chose (reload the page).
 */
export interface EngineStatus {
  state: 'running' | 'crashed' | 'restarting';
  message: string | null;
  reason: 'crash' | 'workspace' | null;
}

export interface IndexProgress {
  /** `sessions`: agent transcripts being ingested (done/total transcripts); `migrate`: an older index rewritten as it opens (chunks). */
  phase: 'discover' | 'index' | 'sessions' | 'migrate';
  done: number;
  total: number;
  path: string | null;
}

/** Chunks embedded so far by the running embedding pass (from `index-progress` events with phase `embed`). */
export interface EmbedProgress {
  done: number;
  total: number;
}

export interface AppSlice {
  view: View;
  indexState: IndexState;
  progress: IndexProgress | null;
  /**
   * Live embedding progress. Kept apart from `progress` and never changes `indexState`: the
   * embedding pass may run in the background (after switching models) while keyword search is ready.
   */
  embedProgress: EmbedProgress | null;
  /** The graph catching up after `index-ready` (search works meanwhile); null when it has. */
  derivedProgress: DerivedProgress | null;
  lastReport: SyncReport | null;
  /** When the last `index-ready` arrived (ISO time). */
  lastReadyAt: string | null;
  indexError: string | null;
  /** Counts engine events; a status answer older than the latest event must not overwrite its state. */
  eventEpoch: number;
  /** False until the first status answer (or when the engine cannot be reached). */
  isConnected: boolean;
  connectionError: string | null;
  engine: EngineStatus;
  /** Indexing paused by the person (status.index.paused, then `index-paused` events). */
  isIndexingPaused: boolean;
  /** Bumped by the focus-search command; the Search view focuses its input when it changes. */
  searchFocusRequest: number;
  /** The Settings card a link or URL asked for (scrolled into view); null for the top of the page. */
  settingsSection: SettingsSection | null;

  /** Opens Settings at one section. */
  showSettingsSection(section: SettingsSection | null): void;
  /** Switches views. An unsaved draft stays in the store, so switching never loses it. */
  setView(view: View): void;
  /** Go to Search and put the cursor in the query (menu, tray). */
  focusSearch(): void;
  /** After a reconnect or an engine restart events may have been missed: ask again for what is shown. */
  reloadData(): void;
  handleEvent(event: EngineEvent): void;
  applyStatusIndexState(state: IndexState, lastError: string | null, epochAtRequest: number): void;
  /** A status answer says no embedding pass is running: drop a stale embedding progress. */
  applyStatusEmbedding(running: boolean, epochAtRequest: number): void;
  applyStatusPaused(paused: boolean, epochAtRequest: number): void;
  setIndexingPaused(paused: boolean): void;
  setConnection(isConnected: boolean, error: string | null): void;
}

export function createAppSlice({ set, get, reloadPage }: SliceContext<'app'>): AppSlice {
  function onEngineState(state: EngineStatus['state'], message: string | null): void {
    const previous = get().app.engine;
    if (state !== 'running') {
      // A restart that no crash preceded is the desktop host opening the workspace the person chose.
      const reason = state === 'crashed' || previous.reason === 'crash' ? 'crash' : 'workspace';
      set({ engine: { state, message: message ?? previous.message, reason } });
      return;
    }
    set({ engine: { state: 'running', message: null, reason: null } });
    // Everything on screen belongs to the old workspace: start the page over.
    if (previous.reason === 'workspace') reloadPage();
    else get().app.reloadData();
  }

  return {
    view: 'search',
    indexState: 'idle',
    progress: null,
    embedProgress: null,
    derivedProgress: null,
    lastReport: null,
    lastReadyAt: null,
    indexError: null,
    eventEpoch: 0,
    isConnected: false,
    connectionError: null,
    engine: { state: 'running', message: null, reason: null },
    isIndexingPaused: false,
    searchFocusRequest: 0,
    settingsSection: null,

    showSettingsSection(settingsSection) {
      get().app.setView('settings');
      set({ settingsSection });
    },

    setView(view) {
      const state = get();
      if (state.app.view === view) return;
      // A token shown once must not survive leaving the Agents view.
      if (state.app.view === 'agents') state.agents.onLeave();
      set({ view, ...(view === 'settings' ? {} : { settingsSection: null }) });
      if (view === 'status') void state.status.refresh();
      if (view === 'memory' && state.memory.filesState === 'idle') void state.memory.loadFiles();
      if (view === 'settings') {
        void state.status.refresh();
        void state.settings.load();
        void state.models.load();
      }
      if (view === 'imports') void state.imports.load();
      if (view === 'dreams') void state.dreams.load();
      if (view === 'graph') void state.graph.load();
      if (view === 'agents') {
        void state.status.refresh();
        void state.agents.load();
      }
    },

    focusSearch() {
      get().app.setView('search');
      set((app) => ({ searchFocusRequest: app.searchFocusRequest + 1 }));
    },

    reloadData() {
      const state = get();
      void state.status.refresh();
      if (!state.welcome.info) void state.welcome.load();
      if (state.memory.filesState !== 'idle') void state.memory.loadFiles();
      if (state.app.view === 'settings') void state.models.load();
      if (state.app.view === 'imports') void state.imports.load();
      if (state.app.view === 'dreams') void state.dreams.load();
      if (state.app.view === 'graph') void state.graph.load();
      if (state.app.view === 'agents') void state.agents.load();
    },

    handleEvent(event) {
      set((app) => ({ eventEpoch: app.eventEpoch + 1 }));
      switch (event.type) {
        case 'index-progress':
          if (event.phase === 'embed') {
            const finished = event.done >= event.total;
            set({ progress: null, embedProgress: finished ? null : { done: event.done, total: event.total } });
            // The last batch of a background pass: show the final counts where they are displayed.
            if (finished && get().app.view === 'settings') void get().status.refresh();
          } else {
            set({
              indexState: 'indexing',
              progress: { phase: event.phase, done: event.done, total: event.total, path: event.path },
              embedProgress: null,
            });
          }
          break;
        case 'index-ready': {
          set({
            indexState: 'ready',
            progress: null,
            embedProgress: null,
            lastReport: event.report,
            lastReadyAt: new Date().toISOString(),
            indexError: null,
          });
          const state = get();
          void state.memory.onIndexReady();
          state.search.rerun();
          if (state.app.view === 'status' || state.app.view === 'settings') void state.status.refresh();
          break;
        }
        case 'graph-updated':
          get().graph.onIndexReady();
          break;
        case 'derived-progress':
          set({ derivedProgress: event.progress.state === 'done' ? null : event.progress });
          break;
        case 'index-error':
          set({ indexState: 'error', progress: null, embedProgress: null, indexError: event.message });
          break;
        case 'files-changed':
          void get().memory.loadFiles();
          break;
        case 'import-progress':
          get().imports.onProgress(event);
          break;
        case 'model-download':
          get().models.onDownload(event);
          break;
        case 'dream-progress':
          get().dreams.onProgress(event);
          break;
        case 'dream-complete':
          get().dreams.onComplete(event);
          break;
        case 'index-paused':
          set({ isIndexingPaused: event.paused });
          break;
        case 'engine-state':
          onEngineState(event.state, event.message);
          break;
        case 'app-command':
          if (event.command === 'focus-search') get().app.focusSearch();
          else if (isView(event.view)) get().app.setView(event.view);
          break;
      }
    },

    applyStatusIndexState(indexState, lastError, epochAtRequest) {
      if (get().app.eventEpoch !== epochAtRequest) return;
      set({ indexState, indexError: lastError, ...(indexState === 'indexing' ? {} : { progress: null }) });
    },

    applyStatusEmbedding(running, epochAtRequest) {
      if (get().app.eventEpoch !== epochAtRequest || running) return;
      set({ embedProgress: null });
    },

    applyStatusPaused(paused, epochAtRequest) {
      if (get().app.eventEpoch !== epochAtRequest) return;
      set({ isIndexingPaused: paused });
    },

    setIndexingPaused(isIndexingPaused) {
      set({ isIndexingPaused });
    },

    setConnection(isConnected, connectionError) {
      set({ isConnected, connectionError });
    },
  };
}
