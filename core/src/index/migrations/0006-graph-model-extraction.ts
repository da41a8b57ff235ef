import type { Migration } from './types.js';

/**
 * Chat-model extraction of the graph. Its entities and claims are written into the same
 * entries as the deterministic ones (so merging, pairs and evidence work unchanged), each
 * mention and statement marked `by_model` (a name both found counts as found by rules), and
 * `graph_model_files` records which version of which file the model has read, so an update
 * asks it only about new versions, and turning it off re-extracts exactly those files.
 */
export const migration0006: Migration = {
  version: 6,
  name: 'graph-model-extraction',
  up(db) {
    db.exec(`
      ALTER TABLE graph_mentions ADD COLUMN by_model INTEGER NOT NULL DEFAULT 0 CHECK (by_model IN (0, 1));
      ALTER TABLE graph_claim_evidence ADD COLUMN by_model INTEGER NOT NULL DEFAULT 0 CHECK (by_model IN (0, 1));

      CREATE TABLE graph_model_files (
        path         TEXT PRIMARY KEY,
        sha256       TEXT NOT NULL,
        -- The chat model's file name: another model reads the file again.
        model        TEXT NOT NULL,
        -- Items that survived validation (0: the model was asked and nothing it said held).
        items        INTEGER NOT NULL,
        extracted_at INTEGER NOT NULL
      ) STRICT;
    `);
  },
};
