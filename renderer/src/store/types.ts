import type { RendererMemoryClient } from '../client/memoryClient.js';
import type { AgentsSlice } from './agentsSlice.js';
import type { AppSlice } from './appSlice.js';
import type { DreamsSlice } from './dreamsSlice.js';
import type { GraphSlice } from './graphSlice.js';
import type { ImportsSlice } from './importsSlice.js';
import type { MemorySlice } from './memorySlice.js';
import type { NotesSlice } from './notesSlice.js';
import type { ModelsSlice } from './modelsSlice.js';
import type { ProvenanceSlice } from './provenanceSlice.js';
import type { SearchSlice } from './searchSlice.js';
import type { SettingsSlice } from './settingsSlice.js';
import type { StatusSlice } from './statusSlice.js';
import type { UndoSlice } from './undoSlice.js';
import type { WelcomeSlice } from './welcomeSlice.js';

/** One slice per view plus the app slice; each slice holds its state and its actions. */
export interface ReverieState {
  app: AppSlice;
  search: SearchSlice;
  memory: MemorySlice;
  /** New, daily, rename and delete (with undo) of notes. */
  notes: NotesSlice;
  status: StatusSlice;
  settings: SettingsSlice;
  models: ModelsSlice;
  /** The Provenance inspector (a side panel over any view) and its forget flow. */
  provenance: ProvenanceSlice;
  /** The Imports view: detect → preview (plan) → apply → report. */
  imports: ImportsSlice;
  /** The Dreams view: diary, runs, one run's card, review/rollback/restore. */
  dreams: DreamsSlice;
  /** The Graph view: the knowledge graph overview, a selected entity's card, the time filter. */
  graph: GraphSlice;
  /** The Agents view: tokens, setup snippets, the access log and the bootstrap preview. */
  agents: AgentsSlice;
  /** The first-run welcome: keep this workspace, open another, then offer imports. */
  welcome: WelcomeSlice;
  /** Reject, Rollback and Forget, held back a few seconds so the person can undo them. */
  undo: UndoSlice;
}

export type SliceName = keyof ReverieState;

export type SlicePatch<K extends SliceName> =
  | Partial<ReverieState[K]>
  | ((slice: ReverieState[K]) => Partial<ReverieState[K]>);

/** What a slice gets to work with: its own setter, the whole state, and the client (nothing else). */
export interface SliceContext<K extends SliceName> {
  set(patch: SlicePatch<K>): void;
  get(): ReverieState;
  client: RendererMemoryClient;
  /** Asks the person a yes/no question (window.confirm in the app; injectable for tests). */
  confirm(message: string): boolean;
  /** Starts the page over (window.location.reload in the app; injectable for tests). */
  reloadPage(): void;
}
