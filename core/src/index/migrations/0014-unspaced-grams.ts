import { gramTermsOf } from '../unspacedGrams.js';
import type { Migration } from './types.js';

/**
 * Search in scripts written without spaces (issue 18): the pairs of characters of their runs,
 * the words such runs hide and the NFKC forms of full-width text, in a side FTS5 table
 * (index/unspacedGrams.ts). Contentless (the terms are derived from chunks.text, never read back)
 * with contentless_delete, so a chunk's row goes when the chunk does. Only chunks with such text
 * get a row: an English index gains three empty tables, and `chunks_fts` is not touched, so
 * search keeps working as before while the rows of existing chunks are written here.
 */
const PAGE = 500;

export const migration0014: Migration = {
  version: 14,
  name: 'unspaced-grams',
  up(db) {
    db.exec(`
      DROP TRIGGER IF EXISTS chunks_grams_after_delete;
      DROP TABLE IF EXISTS chunks_grams_vocab;
      DROP TABLE IF EXISTS chunks_grams;
      CREATE VIRTUAL TABLE chunks_grams USING fts5(
        terms,
        content = '',
        contentless_delete = 1,
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
      CREATE VIRTUAL TABLE chunks_grams_vocab USING fts5vocab(chunks_grams, 'row');
      CREATE TRIGGER chunks_grams_after_delete AFTER DELETE ON chunks BEGIN
        DELETE FROM chunks_grams WHERE rowid = old.id;
      END;
    `);
    // Only chunks with a character outside ASCII can have terms: the rest are never read into
    // JavaScript. Read a page at a time (a connection cannot write while it iterates).
    const insert = db.prepare('INSERT INTO chunks_grams (rowid, terms) VALUES (?, ?)');
    const nonAscii = db.prepare<[number, string, number], { id: number; text: string }>('SELECT id, text FROM chunks WHERE id > ? AND text GLOB ? ORDER BY id LIMIT ?');
    const pattern = `*[^${String.fromCharCode(1)}-${String.fromCharCode(0x7f)}]*`;
    for (let after = 0, page = nonAscii.all(after, pattern, PAGE); page.length > 0; page = nonAscii.all(after, pattern, PAGE)) {
      for (const { id, text } of page) {
        const terms = gramTermsOf(text);
        if (terms) insert.run(id, terms);
      }
      after = page[page.length - 1]!.id;
    }
  },
};
