import type Database from 'better-sqlite3';
import type { DreamRun, DreamSettings, DreamThresholds, EngineEvent } from '../contract/index.js';
import type { OriginClass } from '../contract/index.js';
import type { PreImageStore } from '../workspace/preImages.js';
import type { DreamRunStore } from './runStore.js';
import type { SweepLock } from './sweepLock.js';

/** What a sweep needs from its host: the two stores, the files, the settings and a clock. */
export interface SweepEnvironment {
  dreamDb: Database.Database;
  indexDb: Database.Database;
  workspaceRoot: string;
  preImages: PreImageStore;
  runs: DreamRunStore;
  lock: SweepLock;
  settings: DreamSettings;
  chatModel: { path: string; name: string } | null;
  /** Marks lines dreaming wrote into a curated file, so provenance can say so. */
  recordWrittenLines(path: string, lines: readonly string[], origin: OriginClass, runId: string, detail: string | null): void;
  now(): number;
  timeZone?: string;
  onProgress(event: Extract<EngineEvent, { type: 'dream-progress' }>): void;
}

export interface SweepOptions {
  trigger: DreamRun['trigger'];
  dryRun: boolean;
  thresholds?: DreamThresholds;
}
