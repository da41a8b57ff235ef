import { discoverWorkspace, type DiscoveryOptions } from '../workspace/discovery.js';
import { CHUNKER_VERSION } from './chunker.js';
import type { IndexStore } from './indexStore.js';
import { LINE_DATES_VERSION } from './lineDates.js';

/**
 * Why the index no longer describes the workspace's notes, or null when it does: a file added,
 * removed, or with another size or modification time than the last sync saw, or chunks or line
 * dates made by other rules. A search without a host reads the index as it is only when this is
 * null (a line typed a moment ago must be found); otherwise it catches up first. It costs one
 * listing of the workspace and one read of the files table, never a file's content.
 * Transcripts are not compared: they are ingested by a host as they grow, or by `reverie index`.
 */
export function whyIndexIsStale(store: IndexStore, discovery: DiscoveryOptions): string | null {
  if (store.getMeta('chunker') !== CHUNKER_VERSION) return 'the chunker changed since the last sync';
  if (store.getMeta('line_dates') !== LINE_DATES_VERSION) return 'line dates are made by other rules since the last sync';
  const indexed = store.noteStamps();
  const { files } = discoverWorkspace(discovery);
  for (const file of files) {
    const stamp = indexed.get(file.path);
    if (!stamp) return `${file.path} is new since the last sync`;
    const [absPath, mtimeMs, size] = stamp;
    if (mtimeMs !== file.mtimeMs || size !== file.size || absPath !== file.absPath) return `${file.path} changed since the last sync`;
    indexed.delete(file.path);
  }
  const [removed] = indexed.keys();
  return removed === undefined ? null : `${removed} was removed since the last sync`;
}
