/**
 * Dreaming's share of a search worker: which entries each result recalled. Resolving that is
 * most of recording a recall, so it runs in the worker after the answer is sent; the engine
 * thread only writes the rows (recallRecorder.recordWhenResolved).
 */
import { siblingModule } from '../../platform/moduleWorker.js';
import type { AfterSearchModule, CreateAfterSearch } from '../../search/workers/searchWorkerProtocol.js';
import { DocumentReader, KEPT_CHARS } from './documentLines.js';
import { queryStems } from './queryMatch.js';
import { isRecordedResult, recalledEntries, type RecalledEntry } from './recallRecorder.js';

/** The entries that answered, by result id (results that are not recorded are absent). */
export type RecalledEntries = Record<string, RecalledEntry[]>;

interface RecallOptions {
  /** Where the notes are read from. */
  workspaceRoot: string;
}

/** What the engine hands its search workers so they resolve recalls for this workspace. */
export function recallAfterSearch(workspaceRoot: string): AfterSearchModule {
  return { url: siblingModule(import.meta.url, 'searchWorkerRecall').href, options: { workspaceRoot } satisfies RecallOptions };
}

export const createAfterSearch: CreateAfterSearch<RecalledEntries> = (db, options) => {
  // Each worker keeps as many parsed notes as the engine: with half (4M chars) a 12 MB
  // workspace re-parsed a note for most results, 1.1 ms of a 5 ms search.
  const notes = new DocumentReader(db, (options as RecallOptions).workspaceRoot, KEPT_CHARS);
  return (query, results) => {
    const recalled: RecalledEntries = {};
    const wanted = queryStems(query);
    for (const r of results) if (isRecordedResult(r)) recalled[r.id] = recalledEntries(notes, wanted, r);
    return recalled;
  };
};
