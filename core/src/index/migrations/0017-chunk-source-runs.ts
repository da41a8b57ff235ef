import type { Migration } from './types.js';

/**
 * Source filters inside the keyword ranking (issue 24 item 5). `chunk_source_runs` holds the
 * chunk ids as runs of one source ([first_id, last_id], a handful of rows: a sync writes a
 * file's chunks together, and transcripts are ingested in batches), so a search filtered to one
 * source asks FTS5 only for those id ranges instead of reading every match's source
 * (search/sourceRanges.ts). Kept by triggers on `chunks`, so every writer keeps it true:
 *
 * - an insert past the last run extends it (same source) or opens a run (the common case, a
 *   trigger of its own); an insert at or before the last run's end (an id reused after the
 *   newest chunks were deleted) splits the run of another source holding it;
 * - a delete drops a run once no chunk in its range is left, and joins its neighbours when
 *   they are of one source (nothing of another source lies between them any more).
 *
 * A run may cover ids of deleted chunks; it never covers a live chunk of another source.
 * Neither the FTS table nor the chunks' columns change: the table is filled from chunks.id and
 * chunks.source.
 */
export const RUN_TRIGGERS = ['chunk_source_runs_after_append', 'chunk_source_runs_after_insert', 'chunk_source_runs_after_delete'] as const;

/** The run holding an id (or the nearest before it), as SQL over `x`, an expression of the id. */
const runAt = (x: string): string => `(SELECT max(first_id) FROM chunk_source_runs WHERE first_id <= ${x})`;

export const migration0017: Migration = {
  version: 17,
  name: 'chunk-source-runs',
  up(db) {
    db.exec(`
      DROP TRIGGER IF EXISTS chunk_source_runs_after_append;
      DROP TRIGGER IF EXISTS chunk_source_runs_after_insert;
      DROP TRIGGER IF EXISTS chunk_source_runs_after_delete;
      DROP TABLE IF EXISTS chunk_source_runs;
      CREATE TABLE chunk_source_runs (
        first_id INTEGER PRIMARY KEY,
        last_id  INTEGER NOT NULL,
        source   TEXT NOT NULL
      ) STRICT;

      -- Nearly every insert comes after the last run (ids grow): extend it or open one.
      CREATE TRIGGER chunk_source_runs_after_append AFTER INSERT ON chunks
      WHEN new.id > coalesce((SELECT last_id FROM chunk_source_runs ORDER BY first_id DESC LIMIT 1), 0)
      BEGIN
        -- Ids between the last run and the new one belong to no live chunk: the run may span them.
        UPDATE chunk_source_runs SET last_id = new.id
          WHERE first_id = (SELECT max(first_id) FROM chunk_source_runs) AND source = new.source;
        INSERT INTO chunk_source_runs (first_id, last_id, source)
          SELECT new.id, new.id, new.source
          WHERE NOT EXISTS (SELECT 1 FROM chunk_source_runs WHERE first_id = (SELECT max(first_id) FROM chunk_source_runs) AND last_id = new.id);
      END;

      CREATE TRIGGER chunk_source_runs_after_insert AFTER INSERT ON chunks
      WHEN new.id <= (SELECT last_id FROM chunk_source_runs ORDER BY first_id DESC LIMIT 1)
      BEGIN
        -- Inside a run of another source: its part after the new id becomes a run of its own ...
        INSERT INTO chunk_source_runs (first_id, last_id, source)
          SELECT new.id + 1, last_id, source FROM chunk_source_runs
          WHERE first_id = ${runAt('new.id')} AND last_id > new.id AND source <> new.source;
        -- ... and its part before the new id keeps the run (none left: the run goes).
        UPDATE chunk_source_runs SET last_id = new.id - 1
          WHERE first_id = ${runAt('new.id')} AND last_id >= new.id AND source <> new.source;
        DELETE FROM chunk_source_runs WHERE first_id = new.id AND last_id < first_id;
        -- A run of the same source ending just before (or holding) the id takes it ...
        UPDATE chunk_source_runs SET last_id = max(last_id, new.id)
          WHERE first_id = ${runAt('new.id')} AND last_id >= new.id - 1 AND source = new.source;
        -- ... else it opens a run.
        INSERT INTO chunk_source_runs (first_id, last_id, source)
          SELECT new.id, new.id, new.source
          WHERE NOT EXISTS (SELECT 1 FROM chunk_source_runs WHERE first_id = ${runAt('new.id')} AND last_id >= new.id);
      END;

      CREATE TRIGGER chunk_source_runs_after_delete AFTER DELETE ON chunks
      WHEN NOT EXISTS (
        SELECT 1 FROM chunks WHERE id BETWEEN ${runAt('old.id')}
          AND (SELECT last_id FROM chunk_source_runs WHERE first_id = ${runAt('old.id')})
      )
      BEGIN
        -- The run's last chunk went: its neighbours join when they are of one source.
        UPDATE chunk_source_runs
          SET last_id = (SELECT n.last_id FROM chunk_source_runs n WHERE n.first_id = (SELECT min(first_id) FROM chunk_source_runs WHERE first_id > old.id))
          WHERE first_id = (SELECT max(first_id) FROM chunk_source_runs WHERE first_id < ${runAt('old.id')})
            AND source = (SELECT n.source FROM chunk_source_runs n WHERE n.first_id = (SELECT min(first_id) FROM chunk_source_runs WHERE first_id > old.id));
        DELETE FROM chunk_source_runs
          WHERE first_id = (SELECT min(first_id) FROM chunk_source_runs WHERE first_id > old.id)
            AND last_id <= (SELECT last_id FROM chunk_source_runs WHERE first_id = (SELECT max(first_id) FROM chunk_source_runs WHERE first_id < ${runAt('old.id')}));
        DELETE FROM chunk_source_runs WHERE first_id = ${runAt('old.id')};
      END;
    `);
    // The runs of the chunks already indexed: one pass in id order (reads chunks.id and .source only).
    db.exec(`
      INSERT INTO chunk_source_runs (first_id, last_id, source)
      SELECT min(id), max(id), source FROM (
        SELECT id, source, sum(starts) OVER (ORDER BY id) AS run FROM (
          SELECT id, source, (source IS NOT lag(source) OVER (ORDER BY id)) AS starts FROM chunks
        )
      ) GROUP BY run
    `);
  },
};
