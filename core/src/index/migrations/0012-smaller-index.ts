import type { Migration } from './types.js';

/**
 * A smaller index (issue 24). Entry kinds one row per file (index/entryKindsTable.ts) instead of
 * one per entry: the entries packed in a blob, their hash in 8 bytes, kinds as small codes, the default kind in one byte and
 * cues kept once in `entry_kind_cues`. The old rows are dropped, not converted: kinds are derived
 * from the Markdown, and the next sync reads every file's kinds again (the meta version is
 * cleared) without re-chunking, so search keeps working meanwhile; results and dreaming go
 * without stored kinds only until then (dreaming classifies the text itself).
 */
export const migration0012: Migration = {
  version: 12,
  name: 'smaller-index',
  up(db) {
    db.exec(`
      DROP TABLE IF EXISTS entry_kinds;
      DROP TABLE IF EXISTS entry_kind_cues;
      CREATE TABLE entry_kinds (
        path    TEXT PRIMARY KEY REFERENCES files(path) ON DELETE CASCADE,
        -- The file's entries, packed (layout in index/entryKindsTable.ts).
        entries BLOB NOT NULL
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE entry_kind_cues (
        id  INTEGER PRIMARY KEY,
        -- The wording that decided a kind ("a checkbox", 'starts with "ask"').
        cue TEXT NOT NULL UNIQUE
      ) STRICT;
      DELETE FROM meta WHERE key = 'entry_kinds';
    `);
    // Nothing reads a chunk's 64-hex text hash any more: the model embedding cache hashes the
    // text when it embeds. Dropping it rewrites the chunks in place; ids, FTS rows and vectors stay.
    const chunkColumns = db.prepare("SELECT name FROM pragma_table_info('chunks')").pluck().all() as string[];
    if (chunkColumns.includes('hash')) db.exec('ALTER TABLE chunks DROP COLUMN hash');
    // The built-in hash provider's floats are recomputed from chunk text now (vectorStore.ts): an
    // empty blob says so. This generation's scheme is the one that recomputes; a later scheme is
    // another generation. (Free pages go back to the disk when the index is next compacted.)
    const hashTables = db
      .prepare("SELECT table_key FROM vector_generations WHERE provider = 'hash' AND model = 'hash:fh-words-trigrams' AND preprocessing = 'hash-v1'")
      .pluck()
      .all() as string[];
    for (const key of hashTables) {
      if (!/^[0-9a-f]+$/.test(key)) continue;
      const exists = db.prepare('SELECT 1 FROM sqlite_master WHERE type = ? AND name = ?').get('table', `vectors_${key}`);
      if (exists) db.exec(`UPDATE vectors_${key} SET vector = x'' WHERE length(vector) > 0`);
    }
  },
};
