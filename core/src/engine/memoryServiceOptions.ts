import type { EngineEvent } from '../contract/index.js';
import type { ReadBytes } from '../index/fileReader.js';
import type { ResolvedWorkspace } from '../workspace/resolveWorkspace.js';

/** How an engine is opened: its data folder and workspace, and what a host or a test sets. */
export interface MemoryServiceOptions {
  dataDir: string;
  workspace: ResolvedWorkspace;
  /** Test seam for file reads during indexing. */
  readBytes?: ReadBytes;
  watchDebounceMs?: number;
  /** The clock dreaming reads (recall times, sweeps, schedule); tests move it, nothing else is faked. */
  now?: () => number;
  /** Told to the person with the first sync (e.g. the workspace chosen earlier had gone). */
  startupNotices?: string[];
  /** The host restarts on the workspace the person chose (desktop engine process); unset: it cannot. */
  onDidChooseWorkspace?: (root: string) => void;
  /**
   * Hears every event from the start, as `onDidEmitEvent` does once the service is open: an index
   * of an older layout is migrated while the service opens, and its progress is told only here.
   */
  onEvent?: (event: EngineEvent) => void;
}
