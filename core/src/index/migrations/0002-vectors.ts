import type { Migration } from './types.js';

/**
 * Embedding generations and the embedding cache. Each generation's vectors live in their
 * own tables (`vectors_<key>` plain floats, `vec_<key>` sqlite-vec KNN index), created when
 * the generation is first used, because their width depends on the model's dims.
 */
export const migration0002: Migration = {
  version: 2,
  name: 'vectors',
  up(db) {
    db.exec(`
      CREATE TABLE vector_generations (
        id            TEXT PRIMARY KEY,
        table_key     TEXT NOT NULL UNIQUE,
        provider      TEXT NOT NULL CHECK (provider IN ('hash', 'llama')),
        model         TEXT NOT NULL,
        dims          INTEGER NOT NULL CHECK (dims > 0 AND dims <= 8192),
        preprocessing TEXT NOT NULL,
        created_at    TEXT NOT NULL
      ) STRICT;

      CREATE TABLE embedding_cache (
        generation TEXT NOT NULL,
        text_hash  TEXT NOT NULL,
        vector     BLOB NOT NULL,
        used_at    INTEGER NOT NULL,
        PRIMARY KEY (generation, text_hash)
      ) STRICT, WITHOUT ROWID;
    `);
  },
};
