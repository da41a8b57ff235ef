import type { OriginClass } from '../contract/index.js';
import type { DiscoveredFile } from '../workspace/discovery.js';
import type { FileRow } from './indexStore.js';
import type { PrepareOptions, PreparedFile } from './notePreparation.js';

/** One file for a note reader thread to read and prepare (notePreparation.ts's preparedFromRead). */
export interface NoteReadJob {
  file: DiscoveredFile;
  previous: FileRow | undefined;
  lineOrigins: ReadonlyMap<string, OriginClass> | undefined;
}

/** A prepared file, or why preparing it threw (a bug, not an unreadable file: those are outcomes). */
export type NoteReadResult = { prepared: PreparedFile } | { error: string };

export interface NoteReadRequest {
  id: number;
  jobs: NoteReadJob[];
  options: PrepareOptions;
}

export interface NoteReadReply {
  id: number;
  results: NoteReadResult[];
}
