import { sha256Hex } from '../platform/hash.js';
import { inTimeSlices, yieldToEventLoop } from '../platform/timeSlices.js';
import { lineOriginLookup } from '../provenance/lineHash.js';
import { classifyFileEntries } from './entryKinds.js';
import { readMarkdownFile, withoutByteOrderMark, type ReadBytes } from './fileReader.js';
import type { IndexStore } from './indexStore.js';

/** Files read at once, as the sync reads them (sync.ts): the reads overlap, the classifying does not. */
const READ_CONCURRENCY = 16;

export interface EntryKindsPass {
  /** Files whose kinds were written. */
  derived: number;
  /** Files left for later: changed on disk since they were indexed (the next sync reads them), or gone. */
  deferred: number;
  durationMs: number;
}

/**
 * The entry kinds of every indexed memory file that has none yet (new or edited since, or all
 * of them after the kinds rules changed), derived after `index-ready` like the graph: the kind
 * scorer reads every line, a third of a first index's CPU when it ran inside the sync. Files are
 * read again from disk and their kinds written only when the text is the one indexed (same
 * hash, checked in the transaction that writes them), so a file edited meanwhile never gets the
 * kinds of other text: it stays pending until the sync that reads it. Work goes in time slices
 * that stop when `shouldStop` says so (a sync waits, the engine closes); the rest is found again
 * by the next pass, as the files without a row.
 */
export async function deriveEntryKinds(store: IndexStore, shouldStop: () => boolean, readBytes?: ReadBytes): Promise<EntryKindsPass> {
  const started = performance.now();
  const pass: EntryKindsPass = { derived: 0, deferred: 0, durationMs: 0 };
  const pending = store.filesAwaitingKinds();
  for (let next = 0; next < pending.length && !shouldStop(); ) {
    const wave = pending.slice(next, next + READ_CONCURRENCY);
    next += wave.length;
    const read = await Promise.all(
      wave.map(async (file) => {
        const outcome = await readMarkdownFile(file.absPath, readBytes);
        return outcome.kind === 'text' ? { path: file.path, sha256: sha256Hex(outcome.bytes), text: withoutByteOrderMark(outcome.text) } : null;
      }),
    );
    pass.deferred += read.filter((r) => r === null).length;
    await inTimeSlices(read, (work) => store.transaction(work), (file) => {
      if (!file) return;
      // Checked inside the transaction that writes: nothing changes the row between the check and the write.
      if (store.indexedMemorySha(file.path) !== file.sha256) {
        pass.deferred++;
        return;
      }
      const origins = lineOriginLookup(store.lineProvenance([file.path]).get(file.path));
      store.writeKinds(file.path, classifyFileEntries(file.path, file.text, origins));
      pass.derived++;
    }, { shouldStop });
    await yieldToEventLoop();
  }
  pass.durationMs = performance.now() - started;
  return pass;
}
