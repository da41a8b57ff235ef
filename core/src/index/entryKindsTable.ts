import type Database from 'better-sqlite3';
import { LruCache } from '../platform/lruCache.js';
import type { EntryKind } from '../workspace/entryKind.js';
import type { StoredEntryKind } from './entryKinds.js';

/**
 * The stored kinds of a file's entries, one row per file (index migration 0012): a Markdown file
 * has dozens of entries, and a row per entry repeated its path, a hex hash and two words of
 * text each time (9 MB for 10 MB of notes). Now each entry is a few bytes of a per-file blob:
 *
 *   varint start line (after the previous entry's start), varint span (end − start),
 *   8 bytes of its text hash, varint kind code; then, unless the code is 0 (the default,
 *   "fact" because no other kind matched), varint cue id and the valid-until day (varint
 *   length, then ASCII; length 0 when none).
 *
 * Cues repeat across files ("a checkbox", `starts with "ask"`), so they are kept once in
 * `entry_kind_cues` and entries name them by id. Ids are never reused or deleted, so a reader
 * may remember them.
 */

/** Stored kind codes: append only (a code's meaning never changes; 0 is the default fact). */
const KIND_CODES: readonly EntryKind[] = ['fact', 'preference', 'decision', 'procedure', 'event', 'task', 'question', 'time-bounded'];
const DEFAULT_CUE = 'no other kind matched';
const HASH_BYTES = 8;
/** Decoded files kept (a file's entries are a few KB decoded): about a host's working set of notes. */
const DECODED_FILES_KEPT = 256;

export class EntryKindsTable {
  private readonly stmts;
  private readonly cueIds = new Map<string, number>();
  private readonly cues = new Map<number, string>();
  /**
   * Files decoded lately, with the blob they came from: dreaming asks about each entry of a file
   * in turn, and every search result reports its lines' kinds (a busy host's searches keep
   * returning the same notes; decoding a file again was ~7% of the engine thread under agents' load).
   */
  private readonly decoded = new LruCache<string, { blob: Buffer; kinds: StoredEntryKind[] }>(DECODED_FILES_KEPT);

  constructor(private readonly db: Database.Database) {
    this.stmts = {
      get: db.prepare<[string], { entries: Buffer }>('SELECT entries FROM entry_kinds WHERE path = ?'),
      put: db.prepare('INSERT OR REPLACE INTO entry_kinds (path, entries) VALUES (?, ?)'),
      remove: db.prepare('DELETE FROM entry_kinds WHERE path = ?'),
      clear: db.prepare('DELETE FROM entry_kinds'),
      cueId: db.prepare<[string], { id: number }>('SELECT id FROM entry_kind_cues WHERE cue = ?'),
      addCue: db.prepare('INSERT INTO entry_kind_cues (cue) VALUES (?)'),
      cue: db.prepare<[number], { cue: string }>('SELECT cue FROM entry_kind_cues WHERE id = ?'),
    };
  }

  /**
   * Replaces a file's stored kinds (the file's row must exist). A file without entries gets an
   * empty row: a row says its kinds are derived, no row that they are still to be (entryKindsStep.ts).
   */
  write(path: string, kinds: readonly StoredEntryKind[]): void {
    this.stmts.put.run(path, this.encode(path, kinds));
  }

  /** Every file's kinds are due again (the rules changed): rows go, and the derived pass writes them anew. */
  clear(): void {
    this.stmts.clear.run();
    this.decoded.clear();
  }

  remove(path: string): void {
    this.stmts.remove.run(path);
  }

  /** Every stored entry kind of a file, in line order (none when the file has no row); shared with later calls, so read only. */
  of(path: string): readonly StoredEntryKind[] {
    return this.derivedFor(path) ?? [];
  }

  /** Like `of`, but null when the file's kinds are not derived yet (no row): a reader can tell "none" from "not known yet". */
  derivedFor(path: string): readonly StoredEntryKind[] | null {
    const row = this.stmts.get.get(path);
    if (!row) return null;
    const kept = this.decoded.get(path);
    if (kept && kept.blob.equals(row.entries)) return kept.kinds;
    const kinds = this.decode(path, row.entries);
    this.decoded.set(path, { blob: row.entries, kinds });
    return kinds;
  }

  /** The stored kind of the entry starting at `startLine`, if any. */
  at(path: string, startLine: number): StoredEntryKind | undefined {
    return this.of(path).find((k) => k.startLine === startLine);
  }

  /** The stored kinds of the entries overlapping lines `startLine`–`endLine` of a file, in order; null while the file's kinds are not derived yet. */
  within(path: string, startLine: number, endLine: number): StoredEntryKind[] | null {
    return this.derivedFor(path)?.filter((k) => k.startLine <= endLine && k.endLine >= startLine) ?? null;
  }

  private encode(path: string, kinds: readonly StoredEntryKind[]): Buffer {
    const out = new ByteWriter();
    let previousStart = 0;
    for (const k of [...kinds].sort((a, b) => a.startLine - b.startLine)) {
      if (!/^[0-9a-f]{16}$/.test(k.textHash)) throw new Error(`The entry at ${path}:${k.startLine} has text hash "${k.textHash}"; expected 16 hex characters (entryTextHash).`);
      out.varint(k.startLine - previousStart);
      out.varint(k.endLine - k.startLine);
      out.bytes(Buffer.from(k.textHash, 'hex'));
      previousStart = k.startLine;
      if (k.kind === 'fact' && k.cue === DEFAULT_CUE && k.validUntil === null) {
        out.varint(0);
        continue;
      }
      const code = KIND_CODES.indexOf(k.kind);
      if (code < 0) throw new Error(`The entry at ${path}:${k.startLine} has kind "${k.kind}", which has no stored code; add it to KIND_CODES in index/entryKindsTable.ts.`);
      out.varint(code + 1);
      out.varint(this.idOfCue(k.cue));
      const until = Buffer.from(k.validUntil ?? '', 'ascii');
      out.varint(until.length);
      out.bytes(until);
    }
    return out.done();
  }

  private decode(path: string, blob: Buffer): StoredEntryKind[] {
    const input = new ByteReader(blob, path);
    const kinds: StoredEntryKind[] = [];
    let start = 0;
    while (!input.atEnd()) {
      start += input.varint();
      const end = start + input.varint();
      const textHash = input.bytes(HASH_BYTES).toString('hex');
      const code = input.varint();
      if (code === 0) {
        kinds.push({ startLine: start, endLine: end, textHash, kind: 'fact', validUntil: null, cue: DEFAULT_CUE });
        continue;
      }
      const kind = KIND_CODES[code - 1];
      if (!kind) throw new Error(`The stored kinds of ${path} hold unknown kind code ${code}; delete the index file to rebuild it.`);
      const cue = this.cueOf(input.varint(), path);
      const untilLength = input.varint();
      const validUntil = untilLength > 0 ? input.bytes(untilLength).toString('ascii') : null;
      kinds.push({ startLine: start, endLine: end, textHash, kind, validUntil, cue });
    }
    return kinds;
  }

  private idOfCue(cue: string): number {
    let id = this.cueIds.get(cue) ?? this.stmts.cueId.get(cue)?.id;
    if (id === undefined) id = Number(this.stmts.addCue.run(cue).lastInsertRowid);
    this.cueIds.set(cue, id);
    return id;
  }

  private cueOf(id: number, path: string): string {
    let cue = this.cues.get(id);
    if (cue === undefined) {
      cue = this.stmts.cue.get(id)?.cue;
      if (cue === undefined) throw new Error(`The stored kinds of ${path} name cue ${id}, which entry_kind_cues does not hold; delete the index file to rebuild it.`);
      this.cues.set(id, cue);
    }
    return cue;
  }
}

/** Unsigned LEB128 varints and raw bytes into one growing buffer. */
class ByteWriter {
  private buffer = Buffer.alloc(256);
  private length = 0;

  varint(n: number): void {
    if (!Number.isInteger(n) || n < 0) throw new Error(`Cannot store ${n} as an unsigned varint.`);
    this.room(10);
    while (n >= 0x80) {
      this.buffer[this.length++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.buffer[this.length++] = n;
  }

  bytes(b: Buffer): void {
    this.room(b.length);
    b.copy(this.buffer, this.length);
    this.length += b.length;
  }

  done(): Buffer {
    return Buffer.from(this.buffer.subarray(0, this.length));
  }

  private room(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    const bigger = Buffer.alloc(Math.max(this.buffer.length * 2, this.length + n));
    this.buffer.copy(bigger, 0, 0, this.length);
    this.buffer = bigger;
  }
}

class ByteReader {
  private at = 0;
  constructor(
    private readonly buffer: Buffer,
    private readonly what: string,
  ) {}

  atEnd(): boolean {
    return this.at >= this.buffer.length;
  }

  varint(): number {
    let n = 0;
    let scale = 1;
    for (;;) {
      const byte = this.buffer[this.at++];
      if (byte === undefined) throw this.truncated();
      n += (byte & 0x7f) * scale;
      if (byte < 0x80) return n;
      scale *= 0x80;
    }
  }

  bytes(n: number): Buffer {
    if (this.at + n > this.buffer.length) throw this.truncated();
    const b = this.buffer.subarray(this.at, this.at + n);
    this.at += n;
    return b;
  }

  private truncated(): Error {
    return new Error(`The stored kinds of ${this.what} end mid-entry; delete the index file to rebuild it.`);
  }
}
