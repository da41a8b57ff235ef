import type { OriginClass } from '../contract/index.js';
import type { DiscoveredFile } from '../workspace/discovery.js';
import type { FileRow } from './indexStore.js';

/** One file for a note reader thread to read and prepare (notePreparation.ts's preparedFromRead). */
export interface NoteReadJob {
  file: DiscoveredFile;
  previous: FileRow | undefined;
  lineOrigins: ReadonlyMap<string, OriginClass> | undefined;
}
