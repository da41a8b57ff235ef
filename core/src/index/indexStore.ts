import type Database from 'better-sqlite3';
import type { FileCoverage, FileStatus, SourceKind } from '../contract/index.js';
import type { OriginClass, SessionKind } from '../contract/index.js';
import type { Chunk } from './chunker.js';
import type { StoredEntryKind } from './entryKinds.js';
import { EntryKindsTable } from './entryKindsTable.js';
import type { LineDate } from './lineDates.js';
import type { PackedChunks } from './packedChunks.js';
import { holdsWikiLink, packChunkText, packChunkTextsTogether, withChunkTexts } from './chunkText.js';
import { gramTermsOf } from './unspacedGrams.js';

export interface FileRow {
  path: string;
  absPath: string;
  source: SourceKind;
  sha256: string | null;
  mtimeMs: number;
  size: number;
  status: FileStatus;
  reason: string | null;
}

/** A chunk with its provenance, as stored. */
export interface IndexedChunk extends Chunk {
  origin?: OriginClass;
  sessionKind?: SessionKind | null;
  observedAt?: string | null;
}

export interface ChunkRow {
  id: number;
  path: string;
  source: SourceKind;
  startLine: number;
  endLine: number;
  text: string;
}

/** A chunk's provenance columns, as the search results' summary needs them. */
export interface ChunkProvenance {
  id: number;
  origin: OriginClass;
  session_kind: SessionKind | null;
}

/** Typed SQL over the index: every statement the engine runs lives here, prepared once. */
/** SQL: `f` (the files table) is an indexed memory file — what entry kinds and the graph are derived from. */
export const INDEXED_MEMORY_FILE = "f.source = 'memory' AND f.status = 'indexed' AND f.sha256 IS NOT NULL";

/** Half of a surrogate pair on its own (in `u` mode a whole pair is one code point, not Cs). */
const LONE_SURROGATE = /\p{Cs}/u;

export class IndexStore {
  private readonly stmts;
  /** Files whose chunks wait for the end of writeFilesTogether; null outside it. */
  private waitingChunks: Array<{ path: string; source: SourceKind; chunks: readonly IndexedChunk[] }> | null = null;
  private readonly kinds: EntryKindsTable;

  constructor(readonly db: Database.Database) {
    this.kinds = new EntryKindsTable(db);
    this.stmts = {
      allFiles: db.prepare<[], Record<string, unknown>>(
        'SELECT path, abs_path, source, sha256, mtime_ms, size, status, reason FROM files',
      ),
      // Only what a freshness check compares, as arrays: no sha256 or reason strings for 20,000 rows.
      noteStamps: db.prepare<[], [string, string, number, number]>("SELECT path, abs_path, mtime_ms, size FROM files WHERE source <> 'sessions'").raw(),
      fileAt: db.prepare<[string], Record<string, unknown>>(
        'SELECT path, abs_path, source, sha256, mtime_ms, size, status, reason FROM files WHERE path = ?',
      ),
      // A range of the primary key: the rows below a folder (`a/b/` ≤ path < `a/b0`, '0' following '/').
      filesBelow: db.prepare<[string, string], Record<string, unknown>>(
        'SELECT path, abs_path, source, sha256, mtime_ms, size, status, reason FROM files WHERE path >= ? AND path < ?',
      ),
      upsertFile: db.prepare(
        `INSERT INTO files (path, abs_path, source, sha256, mtime_ms, size, status, reason, indexed_at)
         VALUES (@path, @absPath, @source, @sha256, @mtimeMs, @size, @status, @reason, @indexedAt)
         ON CONFLICT(path) DO UPDATE SET abs_path = excluded.abs_path, source = excluded.source,
           sha256 = excluded.sha256, mtime_ms = excluded.mtime_ms, size = excluded.size,
           status = excluded.status, reason = excluded.reason, indexed_at = excluded.indexed_at`,
      ),
      touchFile: db.prepare('UPDATE files SET mtime_ms = ?, size = ? WHERE path = ?'),
      deleteFile: db.prepare('DELETE FROM files WHERE path = ?'),
      deleteChunks: db.prepare('DELETE FROM chunks WHERE path = ?'),
      insertChunk: db.prepare(
        `INSERT INTO chunks (path, source, start_line, end_line, text, origin, session_kind, observed_at, wiki_links)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertGrams: db.prepare('INSERT INTO chunks_grams (rowid, terms) VALUES (?, ?)'),
      // FTS5 is contentless (migration 0021): the writer gives it each chunk's text, a file's or a
      // batch's in one statement (FTS5 writes a segment at every statement's end).
      insertFts: db.prepare<[string]>('INSERT INTO chunks_fts (rowid, text) SELECT value->>0, value->>1 FROM json_each(?)'),
      // One statement for a whole batch (see packedChunks.ts); json_each yields the rows in array order.
      // Each row's stored text is sliced from one blob of them all (chunkText.ts packChunkTextsTogether): path, source, texts, rows.
      insertPackedChunks: db.prepare<[string, SourceKind, Buffer, Buffer]>(
        `INSERT INTO chunks (path, source, start_line, end_line, text, origin, session_kind, observed_at, wiki_links)
         SELECT ?, ?, value->>0, value->>1, substr(?, value->>2, value->>3), value->>4, value->>5, value->>6, value->>7 FROM json_each(CAST(? AS TEXT))`,
      ),
      insertPackedFts: db.prepare<[number, Buffer]>('INSERT INTO chunks_fts (rowid, text) SELECT ? + key, value FROM json_each(CAST(? AS TEXT))'),
      hasChunks: db.prepare<[string], { one: number }>('SELECT 1 AS one FROM chunks WHERE path = ? LIMIT 1'),
      chunkIdsOf: db.prepare<[string], number>('SELECT id FROM chunks WHERE path = ? ORDER BY id').pluck(),
      // The chunks of several files at once (see writeFilesTogether): json_each yields the rows in array order.
      // Texts, then rows, as above.
      insertFilesChunks: db.prepare<[Buffer, Buffer]>(
        `INSERT INTO chunks (path, source, start_line, end_line, text, origin, session_kind, observed_at, wiki_links)
         SELECT value->>0, value->>1, value->>2, value->>3, substr(?, value->>4, value->>5), value->>6, value->>7, value->>8, value->>9 FROM json_each(CAST(? AS TEXT))`,
      ),
      coverage: db.prepare<[], Record<string, unknown>>(
        `SELECT f.path, f.source, f.status, f.reason, f.size, f.mtime_ms,
                (SELECT count(*) FROM chunks c WHERE c.path = f.path) AS chunks
         FROM files f ORDER BY f.path`,
      ),
      counts: db.prepare<[], { files: number; indexed: number; skipped: number; failed: number }>(
        `SELECT count(*) AS files,
                coalesce(sum(status = 'indexed'), 0) AS indexed,
                coalesce(sum(status = 'skipped'), 0) AS skipped,
                coalesce(sum(status = 'failed'), 0) AS failed
         FROM files`,
      ),
      chunkCount: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM chunks'),
      getMeta: db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?'),
      lineProvenance: db.prepare<[], { path: string; line_hash: string; origin: OriginClass }>('SELECT path, line_hash, origin FROM line_provenance'),
      // Entry kinds are derived after search is ready: a memory file without a row is still to do.
      filesAwaitingKinds: db.prepare<[], { path: string; absPath: string; sha256: string }>(
        `SELECT f.path, f.abs_path AS absPath, f.sha256 FROM files f
         WHERE ${INDEXED_MEMORY_FILE} AND NOT EXISTS (SELECT 1 FROM entry_kinds k WHERE k.path = f.path)
         ORDER BY f.path`,
      ),
      kindsBacklog: db.prepare<[], { done: number; total: number }>(
        `SELECT count(*) AS total, count(k.path) AS done FROM files f LEFT JOIN entry_kinds k ON k.path = f.path
         WHERE ${INDEXED_MEMORY_FILE}`,
      ),
      lineProvenanceOf: db.prepare<[string], { path: string; line_hash: string; origin: OriginClass }>('SELECT path, line_hash, origin FROM line_provenance WHERE path = ?'),
      forgottenPaths: db.prepare<[], { key: string }>("SELECT key FROM tombstones WHERE kind = 'path'"),
      setMeta: db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value'),
      // Every search asks: prepared once per connection.
      chunkProvenance: db.prepare<[string], ChunkProvenance>('SELECT id, origin, session_kind FROM chunks WHERE id IN (SELECT value FROM json_each(?))'),
      chunkTexts: withChunkTexts(db.prepare<[string], { id: number; text: string }>('SELECT id, text FROM chunks WHERE id IN (SELECT value FROM json_each(?))')),
      deleteLineDates: db.prepare('DELETE FROM line_dates WHERE path = ?'),
      insertLineDate: db.prepare('INSERT OR IGNORE INTO line_dates (path, line, day_from, day_to, precision) VALUES (?, ?, ?, ?, ?)'),
    };
  }

  allFiles(): Map<string, FileRow> {
    return new Map(this.stmts.allFiles.all().map((r) => [r.path as string, fileRowOf(r)]));
  }

  /** Every note file's path → [absolute path, modification time, size] as the last sync saw them (transcripts left out). */
  noteStamps(): Map<string, [absPath: string, mtimeMs: number, size: number]> {
    const stamps = new Map<string, [string, number, number]>();
    for (const [path, absPath, mtimeMs, size] of this.stmts.noteStamps.all()) stamps.set(path, [absPath, mtimeMs, size]);
    return stamps;
  }

  /** The rows at these paths and below these folders (display paths): what a sync of changed paths compares with. */
  filesWithin(covered: { paths: readonly string[]; folders: readonly string[] }): Map<string, FileRow> {
    const map = new Map<string, FileRow>();
    for (const p of new Set([...covered.paths, ...covered.folders])) {
      const r = this.stmts.fileAt.get(p);
      if (r) map.set(p, fileRowOf(r));
    }
    for (const folder of new Set(covered.folders)) {
      for (const r of this.stmts.filesBelow.all(`${folder}/`, `${folder}0`)) map.set(r.path as string, fileRowOf(r));
    }
    return map;
  }

  /**
   * Records a file's state; an indexed file gets its chunks (and line dates) replaced, any other
   * loses them. Its entries' kinds go either way: they are derived after search is ready (entryKindsStep.ts).
   */
  writeFile(row: FileRow, chunks: readonly IndexedChunk[] | null, lineDates: readonly LineDate[] | null = null): void {
    this.beforeDeletingChunksOf(row.path);
    this.stmts.deleteChunks.run(row.path);
    this.kinds.remove(row.path);
    this.stmts.deleteLineDates.run(row.path);
    this.stmts.upsertFile.run({ ...row, indexedAt: Date.now() });
    if (chunks && this.waitingChunks) this.waitingChunks.push({ path: row.path, source: row.source, chunks });
    else if (chunks) this.appendChunks(row, chunks);
    if (lineDates) this.writeLineDates(row.path, lineDates);
  }

  /**
   * Runs `work` (writeFile calls, inside a transaction) with the files' chunks inserted together
   * at its end, in one statement. FTS5 writes its pending terms as a new segment at every
   * statement that follows a write: chunk by chunk, that was a segment per chunk to write and
   * merge again, half of a first index's CPU. The rows, their ids and their order are the ones
   * writeFile alone gives: chunks wait only past statements that do not touch chunks, and go in
   * before a file's old chunks are deleted.
   */
  writeFilesTogether<T>(work: () => T): T {
    if (this.waitingChunks) return work();
    this.waitingChunks = [];
    try {
      const result = work();
      this.insertWaitingChunks();
      return result;
    } finally {
      this.waitingChunks = null;
    }
  }

  /** A file whose chunks go (it has some, or some wait): the waiting ones go in first, so every chunk gets the id it would have got written at once. */
  private beforeDeletingChunksOf(path: string): void {
    if (!this.waitingChunks?.length) return;
    if (this.waitingChunks.some((f) => f.path === path) || this.stmts.hasChunks.get(path)) this.insertWaitingChunks();
  }

  private insertWaitingChunks(): void {
    const files = this.waitingChunks ?? [];
    if (files.length === 0) return;
    this.waitingChunks = [];
    const texts = files.flatMap((f) => f.chunks.map((c) => c.text));
    const textsJson = JSON.stringify(texts);
    // A lone surrogate would reach SQLite through JSON as itself, where a bound string gets U+FFFD: those go row by row.
    if (textsJson.includes('\\ud') && files.some((f) => f.chunks.some((c) => LONE_SURROGATE.test(c.text)))) {
      for (const file of files) this.appendChunks(file, file.chunks);
      return;
    }
    // The stored texts are deflated (chunkText.ts) into one blob the rows slice; FTS5 (contentless) gets the plain texts.
    const { bytes, spans } = packChunkTextsTogether(texts);
    const rows: unknown[] = [];
    const grams: Array<[number, string]> = [];
    for (const file of files) {
      for (const c of file.chunks) {
        const terms = gramTermsOf(c.text);
        if (terms) grams.push([rows.length, terms]);
        const [start, length] = spans[rows.length]!;
        rows.push([file.path, file.source, c.startLine, c.endLine, start, length, c.origin ?? 'owner', c.sessionKind ?? null, c.observedAt ?? null, holdsWikiLink(c.text) ? 1 : 0]);
      }
    }
    const inserted = this.stmts.insertFilesChunks.run(asBuffer(bytes), Buffer.from(JSON.stringify(rows), 'utf8'));
    this.writeSearchRowsOfInserted(inserted, rows.length, Buffer.from(textsJson, 'utf8'), grams, 'a sync slice');
  }

  /**
   * After one statement inserted `expected` chunk rows: checks they all went in, gives FTS5 their texts (a JSON array,
   * in row order) and writes the grams of the rows at these indexes.
   */
  private writeSearchRowsOfInserted(
    inserted: Database.RunResult, expected: number, textsJson: Buffer, grams: ReadonlyArray<readonly [number, string]>, what: string,
  ): void {
    if (inserted.changes !== expected) throw new Error(`${what}: ${inserted.changes} of ${expected} chunks were written`);
    // One statement gives its rows consecutive ids (max + 1 each), the last one reported.
    const firstId = Number(inserted.lastInsertRowid) - inserted.changes + 1;
    this.stmts.insertPackedFts.run(firstId, textsJson);
    for (const [index, terms] of grams) this.stmts.insertGrams.run(firstId + index, terms);
  }

  /** The ids of a file's chunks, in the order they were written. */
  chunkIdsOf(path: string): number[] {
    return this.stmts.chunkIdsOf.all(path);
  }

  /** Replaces the dates a file's lines speak of (the file's row must exist). */
  writeLineDates(path: string, dates: readonly LineDate[]): void {
    this.stmts.deleteLineDates.run(path);
    for (const d of dates) this.stmts.insertLineDate.run(path, d.line, d.from, d.to, d.precision);
  }

  /** Replaces a file's stored entry kinds (the file's row must exist). */
  writeKinds(path: string, kinds: readonly StoredEntryKind[]): void {
    this.kinds.write(path, kinds);
  }

  /** Every file's entry kinds are due again (made by other rules): the derived pass writes them anew. */
  clearKinds(): void {
    this.kinds.clear();
  }

  /** The stored kinds of the entries overlapping lines `startLine`–`endLine` of a file, in order; null while the file's kinds are still to be derived. */
  kindsWithin(path: string, startLine: number, endLine: number): StoredEntryKind[] | null {
    return this.kinds.within(path, startLine, endLine);
  }

  /** Indexed memory files whose entries' kinds are still to be derived, in path order, with the hash of the text that was indexed. */
  filesAwaitingKinds(): { path: string; absPath: string; sha256: string }[] {
    return this.stmts.filesAwaitingKinds.all();
  }

  /** How far the entry kinds have caught up: indexed memory files with their kinds derived, of all of them. */
  kindsBacklog(): { done: number; total: number } {
    return this.stmts.kindsBacklog.get()!;
  }

  /** The hash of the text indexed for an indexed memory file (null when it is not one now): what derived kinds must have been read from. */
  indexedMemorySha(path: string): string | null {
    const row = this.stmts.fileAt.get(path);
    return row && row.source === 'memory' && row.status === 'indexed' ? ((row.sha256 as string | null) ?? null) : null;
  }

  /** Updates a file's row (size, mtime, status) and keeps its chunks. */
  writeFileRowOnly(row: FileRow): void {
    this.stmts.upsertFile.run({ ...row, indexedAt: Date.now() });
  }

  /** Adds chunks to a file without touching the ones it has (incremental transcript ingestion). */
  appendChunks(row: Pick<FileRow, 'path' | 'source'>, chunks: readonly IndexedChunk[]): void {
    const fts: Array<[number, string]> = [];
    for (const c of chunks) {
      const { lastInsertRowid } = this.stmts.insertChunk.run(
        row.path, row.source, c.startLine, c.endLine, packChunkText(c.text),
        c.origin ?? 'owner', c.sessionKind ?? null, c.observedAt ?? null, holdsWikiLink(c.text) ? 1 : 0,
      );
      fts.push([Number(lastInsertRowid), c.text]);
      const grams = gramTermsOf(c.text);
      if (grams) this.stmts.insertGrams.run(lastInsertRowid, grams);
    }
    if (fts.length > 0) this.stmts.insertFts.run(JSON.stringify(fts));
  }

  /** `appendChunks` for chunks packed on another thread: one statement, the same rows, ids and grams. */
  appendPackedChunks(row: Pick<FileRow, 'path' | 'source'>, packed: PackedChunks): void {
    if (packed.count === 0) return;
    const inserted = this.stmts.insertPackedChunks.run(row.path, row.source, asBuffer(packed.packed), asBuffer(packed.json));
    this.writeSearchRowsOfInserted(inserted, packed.count, asBuffer(packed.texts), packed.grams, row.path);
  }

  touchFile(path: string, mtimeMs: number, size: number): void {
    this.stmts.touchFile.run(mtimeMs, size, path);
  }

  removeFile(path: string): void {
    this.beforeDeletingChunksOf(path);
    this.stmts.deleteChunks.run(path);
    this.kinds.remove(path);
    this.stmts.deleteLineDates.run(path);
    this.stmts.deleteFile.run(path);
  }

  coverage(): FileCoverage[] {
    return this.stmts.coverage.all().map((r) => ({
      path: r.path as string,
      source: r.source as SourceKind,
      status: r.status as FileStatus,
      reason: (r.reason as string | null) ?? null,
      size: r.size as number,
      mtimeMs: r.mtime_ms as number,
      chunks: r.chunks as number,
    }));
  }

  counts(): { files: number; indexed: number; skipped: number; failed: number; chunks: number } {
    const c = this.stmts.counts.get()!;
    return { ...c, chunks: this.stmts.chunkCount.get()!.n };
  }

  /** Per path (every path, or these), the class of each line Reverie wrote itself (by normalised line hash). */
  lineProvenance(paths?: readonly string[]): Map<string, Map<string, OriginClass>> {
    const byPath = new Map<string, Map<string, OriginClass>>();
    const rows = paths ? paths.flatMap((p) => this.stmts.lineProvenanceOf.all(p)) : this.stmts.lineProvenance.all();
    for (const r of rows) {
      let lines = byPath.get(r.path);
      if (!lines) byPath.set(r.path, (lines = new Map()));
      lines.set(r.line_hash, r.origin);
    }
    return byPath;
  }

  /** The origin and session kind of the chunks with these ids (a JSON array of them). */
  /** The stored text of each chunk that still exists, by id. */
  chunkTexts(ids: readonly number[]): Map<number, string> {
    return new Map(this.stmts.chunkTexts.all(JSON.stringify(ids)).map((r) => [r.id, r.text]));
  }

  chunkProvenance(idsJson: string): ChunkProvenance[] {
    return this.stmts.chunkProvenance.all(idsJson);
  }

  /** The text of up to `limit` chunks of the `memory` source (the workspace's own files, not transcripts). */
  /** Memory chunks whose text holds `[[` (candidates for wiki-links), in path and line order. */
  chunksWithWikiLinks(): { path: string; startLine: number; endLine: number; text: string }[] {
    return this.db
      .prepare<[], { path: string; startLine: number; endLine: number; text: string }>(
        "SELECT path, start_line AS startLine, end_line AS endLine, chunk_text(text) AS text FROM chunks WHERE source = 'memory' AND wiki_links = 1 ORDER BY path, start_line",
      )
      .all();
  }

  /** Up to `limit` memory chunks' texts, read one row at a time. */
  *memoryChunkTexts(limit: number): Generator<string> {
    for (const row of this.db.prepare<[number], { text: string }>("SELECT chunk_text(text) AS text FROM chunks WHERE source = 'memory' LIMIT ?").iterate(limit)) yield row.text;
  }

  forgottenPaths(): Set<string> {
    return new Set(this.stmts.forgottenPaths.all().map((r) => r.key));
  }

  getMeta(key: string): string | null {
    return this.stmts.getMeta.get(key)?.value ?? null;
  }

  setMeta(key: string, value: string): void {
    this.stmts.setMeta.run(key, value);
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }
}

/** The bytes as a Buffer without copying them (better-sqlite3 binds Buffers as blobs; the SQL casts them to text). */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function fileRowOf(r: Record<string, unknown>): FileRow {
  return {
    path: r.path as string,
    absPath: r.abs_path as string,
    source: r.source as SourceKind,
    sha256: (r.sha256 as string | null) ?? null,
    mtimeMs: r.mtime_ms as number,
    size: r.size as number,
    status: r.status as FileStatus,
    reason: (r.reason as string | null) ?? null,
  };
}
