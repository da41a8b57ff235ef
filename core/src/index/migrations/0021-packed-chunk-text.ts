import { holdsWikiLink, packChunkText } from '../chunkText.js';
import type { Migration } from './types.js';

/** Old chunks read per step: a connection cannot write while it iterates. */
const PAGE = 2_000;

/**
 * A smaller index (issue 24): chunk text stored deflated (index/chunkText.ts), 14.4 → ~7.6 MB
 * of 36.9 MB at 2,000 notes. FTS5 read its text from `chunks` (external content), so it becomes
 * contentless (`contentless_delete`, like `chunks_grams`): the writers give it the text they
 * have, and a deleted chunk's row goes by rowid. Nothing used FTS5's copy of the text (bm25()
 * only; snippets are built from `chunks`).
 *
 * A flag column, `wiki_links`, keeps the backlinks' read to the chunks holding `[[` (it was an
 * `instr()` over the text).
 *
 * STRICT `chunks` cannot hold a blob in its TEXT column, so the table is rebuilt with the same
 * ids; its other triggers (source runs, grams, vectors) and indexes are taken over as they are.
 * The FTS index is rebuilt from the old text inside this migration: search works as soon as the
 * index opens (about 2 s per 10 MB of chunk text), and the pages freed go back to the disk once
 * the next sync is done (`meta` 'compact_after_upgrade'). It runs while the index opens, before anything answers: searches wait
 * for it, and it reports its progress (chunks done of all) after every page.
 */
export const migration0021: Migration = {
  version: 21,
  name: 'packed-chunk-text',
  withoutForeignKeys: true,
  up(db, progress) {
    // Already packed when an index is migrated again from an older recorded version.
    const textType = db.prepare("SELECT type FROM pragma_table_info('chunks') WHERE name = 'text'").pluck().get();
    if (textType === 'BLOB') return;
    const kept = db
      .prepare("SELECT sql FROM sqlite_master WHERE tbl_name = 'chunks' AND type IN ('index', 'trigger') AND sql IS NOT NULL AND name NOT IN ('chunks_after_insert', 'chunks_after_delete')")
      .pluck()
      .all() as string[];
    db.exec(`
      DROP TABLE IF EXISTS chunks_packed;
      CREATE TABLE chunks_packed (
        id           INTEGER PRIMARY KEY,
        path         TEXT NOT NULL REFERENCES files(path) ON DELETE CASCADE,
        source       TEXT NOT NULL CHECK (source IN ('memory', 'dreams', 'sessions')),
        start_line   INTEGER NOT NULL CHECK (start_line >= 1),
        end_line     INTEGER NOT NULL CHECK (end_line >= start_line),
        -- Raw deflate of the UTF-8 text (index/chunkText.ts); SQL reads it as chunk_text(text).
        text         BLOB NOT NULL,
        origin       TEXT NOT NULL DEFAULT 'owner' CHECK (origin IN ('owner', 'agent', 'untrusted', 'system')),
        session_kind TEXT CHECK (session_kind IS NULL OR session_kind IN ('interactive', 'cron', 'heartbeat', 'subagent', 'unknown')),
        observed_at  TEXT,
        -- 1 when the text holds \`[[\`: backlinks read only those chunks (the text cannot be searched in SQL).
        wiki_links   INTEGER NOT NULL DEFAULT 0 CHECK (wiki_links IN (0, 1))
      ) STRICT;
    `);
    // The old FTS table read its text from the old `chunks`: it goes first, and its contentless
    // successor is filled page by page with the packed rows (the old triggers never fire meanwhile).
    db.exec(`
      DROP TABLE IF EXISTS chunks_vocab;
      DROP TABLE IF EXISTS chunks_fts;
      CREATE VIRTUAL TABLE chunks_fts USING fts5(
        text,
        content = '',
        contentless_delete = 1,
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
      CREATE VIRTUAL TABLE chunks_vocab USING fts5vocab(chunks_fts, 'row');
    `);
    const insertFts = db.prepare('INSERT INTO chunks_fts (rowid, text) VALUES (?, ?)');
    const insert = db.prepare(
      'INSERT INTO chunks_packed (id, path, source, start_line, end_line, text, origin, session_kind, observed_at, wiki_links) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const page = db.prepare<[number, number], { id: number; path: string; source: string; start_line: number; end_line: number; text: string; origin: string; session_kind: string | null; observed_at: string | null }>(
      'SELECT id, path, source, start_line, end_line, text, origin, session_kind, observed_at FROM chunks WHERE id > ? ORDER BY id LIMIT ?',
    );
    const total = db.prepare('SELECT count(*) FROM chunks').pluck().get() as number;
    let done = 0;
    progress?.(0, total);
    for (let rows = page.all(0, PAGE); rows.length > 0; rows = page.all(rows[rows.length - 1]!.id, PAGE)) {
      for (const r of rows) {
        insert.run(r.id, r.path, r.source, r.start_line, r.end_line, packChunkText(r.text), r.origin, r.session_kind, r.observed_at, holdsWikiLink(r.text) ? 1 : 0);
        insertFts.run(r.id, r.text);
      }
      done += rows.length;
      progress?.(done, total);
    }
    db.exec(`
      DROP TABLE chunks;
      ALTER TABLE chunks_packed RENAME TO chunks;
    `);
    for (const sql of kept) db.exec(sql);
    // Writers add a chunk's FTS row themselves (they hold its text); a deleted chunk's goes here.
    db.exec(`
      CREATE TRIGGER chunks_after_delete AFTER DELETE ON chunks BEGIN
        DELETE FROM chunks_fts WHERE rowid = old.id;
      END;
    `);
    // The old text and FTS pages are now free inside the file (154 of 428 MB at 20,000 notes, below
    // the share that compacts at open): give them back after the next sync (compactAfterUpgrade.ts).
    if (db.prepare('SELECT 1 FROM chunks LIMIT 1').get() !== undefined) db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('compact_after_upgrade', 'pending')").run();
  },
};
