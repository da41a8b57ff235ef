import type { Migration } from './types.js';

/**
 * Cells for whole-index KNN over large model-vector generations (see vectorCells.ts): the
 * trained centroids of each generation and whether every vector has been given its cell. The
 * per-generation vec0 table partitioned by cell is created with the generation's other tables.
 */
export const migration0007: Migration = {
  version: 7,
  name: 'vector-cells',
  up(db) {
    db.exec(`
      CREATE TABLE vector_cells (
        table_key  TEXT PRIMARY KEY,
        -- Binary centroids, one after another (dims/8 bytes each, padded to 4-byte words).
        centroids  BLOB NOT NULL,
        cells      INTEGER NOT NULL,
        -- Vectors in the generation when the centroids were trained: retrained at twice as many.
        trained_on INTEGER NOT NULL,
        state      TEXT NOT NULL CHECK (state IN ('assigning', 'ready')),
        updated_at TEXT NOT NULL
      ) STRICT;
    `);
  },
};
