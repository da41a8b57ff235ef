import { createStore, type StoreApi } from 'zustand/vanilla';
import type { RendererMemoryClient } from '../client/memoryClient.js';
import { createAgentsSlice } from './agentsSlice.js';
import { createAppSlice } from './appSlice.js';
import { createDreamsSlice } from './dreamsSlice.js';
import { createGraphSlice } from './graphSlice.js';
import { createImportsSlice } from './importsSlice.js';
import { createMemorySlice } from './memorySlice.js';
import { createNotesSlice } from './notesSlice.js';
import { createModelsSlice } from './modelsSlice.js';
import { createProvenanceSlice } from './provenanceSlice.js';
import { createSearchSlice } from './searchSlice.js';
import { createSettingsSlice } from './settingsSlice.js';
import { createStatusSlice } from './statusSlice.js';
import { createUndoSlice } from './undoSlice.js';
import { createWelcomeSlice } from './welcomeSlice.js';
import type { ReverieState, SliceContext, SliceName, SlicePatch } from './types.js';

export type ReverieStore = StoreApi<ReverieState>;

export interface StoreOptions {
  confirm?: (message: string) => boolean;
  reloadPage?: () => void;
}

/** The app's single store. Slices talk to the engine only through `client`. */
export function createReverieStore(client: RendererMemoryClient, options: StoreOptions = {}): ReverieStore {
  const confirm = options.confirm ?? ((message: string) => window.confirm(message));
  const reloadPage = options.reloadPage ?? (() => window.location.reload());
  return createStore<ReverieState>()((set, get) => {
    function contextFor<K extends SliceName>(name: K): SliceContext<K> {
      return {
        set(patch: SlicePatch<K>) {
          set((state) => {
            const current = state[name];
            const changes = typeof patch === 'function' ? patch(current) : patch;
            return { [name]: { ...current, ...changes } } as unknown as Partial<ReverieState>;
          });
        },
        get,
        client,
        confirm,
        reloadPage,
      };
    }
    return {
      app: createAppSlice(contextFor('app')),
      search: createSearchSlice(contextFor('search')),
      memory: createMemorySlice(contextFor('memory')),
      notes: createNotesSlice(contextFor('notes')),
      status: createStatusSlice(contextFor('status')),
      settings: createSettingsSlice(contextFor('settings')),
      models: createModelsSlice(contextFor('models')),
      provenance: createProvenanceSlice(contextFor('provenance')),
      imports: createImportsSlice(contextFor('imports')),
      dreams: createDreamsSlice(contextFor('dreams')),
      graph: createGraphSlice(contextFor('graph')),
      agents: createAgentsSlice(contextFor('agents')),
      welcome: createWelcomeSlice(contextFor('welcome')),
      undo: createUndoSlice(contextFor('undo')),
    };
  });
}

/** Wires engine events into the store and loads the first data. Returns a disposer. */
export function connectStore(store: ReverieStore, client: RendererMemoryClient): () => void {
  const offEvent = client.onEvent((event) => store.getState().app.handleEvent(event));
  const offConnection = client.onDidChangeConnection((isConnected) => {
    const state = store.getState();
    if (!isConnected) {
      state.app.setConnection(false, 'Lost the connection to Reverie. Reconnecting…');
      return;
    }
    state.app.reloadData();
  });
  void store.getState().status.refresh();
  void store.getState().memory.loadFiles();
  void store.getState().welcome.load();
  return () => {
    offEvent();
    offConnection();
  };
}
