import type { Migration } from './types.js';

/** Segments FTS5 lets gather on one level before it merges them (its default is 4). */
export const FTS_AUTOMERGE = 8;

/**
 * Fewer FTS5 merges per byte written (issue 24, transcripts at 50 MB/s). Every write
 * transaction flushes its new terms into a level-0 segment, and FTS5 merges a level once
 * `automerge` segments gather on it, so each term is rewritten once per level it climbs: about
 * log4 of the segments written by default, log8 with 8. A transcript ingest is thousands of
 * such transactions, and FTS5's work at their commits was a third of the engine thread's time
 * (replaying the writes of 60 MB of transcripts, three pairs: commit 5.3–5.8 → 4.3–4.7 CPU ms
 * per MB; onto an index already holding 300 MB, 7.7–8.6 → 7.3–7.8; the scale bench's engine
 * thread at 300 MB, four pairs: 16.6–17.0 → 14.6–16.0 ms per MB). Searches read at most twice
 * the segments of a level; their CPU measured the same. The setting lives in the FTS table's
 * config row, so it holds for every connection.
 */
export const migration0022: Migration = {
  version: 22,
  name: 'fts-automerge',
  up(db) {
    // A bound JavaScript number is a real, which FTS5 refuses for this setting: a literal integer.
    db.exec(`INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('automerge', ${FTS_AUTOMERGE})`);
  },
};
