import { leastTrusted, type OriginClass } from '../contract/index.js';
import { HashEmbeddingProvider } from '../embed/hashProvider.js';
import { sha256Hex } from '../platform/hash.js';
import { lineOriginLookup } from '../provenance/lineHash.js';
import { parseImportedEntries } from '../workspace/importedEntries.js';
import { importedMemoryOf } from '../workspace/layout.js';
import type { DiscoveredFile } from '../workspace/discovery.js';
import { chunkMarkdown, type Chunk } from './chunker.js';
import { withoutByteOrderMark, type ReadOutcome } from './fileReader.js';
import type { FileRow, IndexedChunk } from './indexStore.js';
import { resolveLineDates, type LineDate } from './lineDates.js';

/**
 * What a sync does with one discovered file, decided on the engine thread (no read needed) or
 * from the file's bytes (on the engine thread or a note reader thread, noteReadWorker.ts): the
 * same pure steps either way, so both give the same rows.
 */
export interface PreparedFile {
  row: FileRow;
  chunks: IndexedChunk[] | null;
  /** The dates its lines speak of, resolved against the note's date, for a file that was read (Markdown the person or their tools wrote). */
  lineDates?: LineDate[];
  outcome: 'added' | 'updated' | 'unchanged' | 'touched' | 'skipped' | 'failed' | 'vanished';
  bytes: number;
  /** The chunks' hash vectors, one after another (PrepareOptions.hashVectorDims), when asked for. */
  vectors?: Float32Array;
}

export interface PrepareOptions {
  force?: boolean;
  maxFileBytes: number;
  /** Line dates made by other rules (or none yet): every file is read again, not re-chunked. */
  refreshLineDates: boolean;
  /**
   * Also compute each chunk's hash vector (HashEmbeddingProvider of these dimensions): on a reader
   * thread that takes the embedding step's work off the engine thread, which then only stores them.
   */
  hashVectorDims?: number;
}

export function rowFor(file: DiscoveredFile): FileRow {
  return {
    path: file.path, absPath: file.absPath, source: file.source, sha256: null,
    mtimeMs: file.mtimeMs, size: file.size, status: 'indexed', reason: null,
  };
}

function skipped(file: DiscoveredFile, reason: string, sha256: string | null = null): PreparedFile {
  return { row: { ...rowFor(file), status: 'skipped', reason, sha256 }, chunks: null, outcome: 'skipped', bytes: 0 };
}

/** The outcome for a file that need not be read (not indexable, too large, unchanged since `previous`); null when it must be read. */
export function preparedWithoutReading(file: DiscoveredFile, previous: FileRow | undefined, options: PrepareOptions): PreparedFile | null {
  if (file.skipReason) return skipped(file, file.skipReason);
  if (file.size > options.maxFileBytes) {
    return skipped(file, `too large (${formatMB(file.size)}; the limit is ${formatMB(options.maxFileBytes)}, setting maxFileSizeMB)`);
  }
  if (
    !options.force && !options.refreshLineDates && previous && previous.status === 'indexed' &&
    previous.mtimeMs === file.mtimeMs && previous.size === file.size && previous.absPath === file.absPath
  ) {
    return { row: previous, chunks: null, outcome: 'unchanged', bytes: 0 };
  }
  return null;
}

/** The outcome for a file that was read: its row, and its chunks and line dates when its text changed. */
export function preparedFromRead(
  file: DiscoveredFile,
  previous: FileRow | undefined,
  read: ReadOutcome,
  options: PrepareOptions,
  lineOrigins: ReadonlyMap<string, OriginClass> | undefined,
): PreparedFile {
  const base = rowFor(file);
  if (read.kind === 'vanished') return { row: base, chunks: null, outcome: 'vanished', bytes: 0 };
  if (read.kind === 'failed') return { row: { ...base, status: 'failed', reason: read.reason }, chunks: null, outcome: 'failed', bytes: 0 };
  if (read.kind === 'skipped') return skipped(file, read.reason, read.bytes ? sha256Hex(read.bytes) : null);

  const sha256 = sha256Hex(read.bytes);
  // Size can change between discovery and read; record what was actually indexed.
  const row: FileRow = { ...base, sha256, size: read.bytes.length };
  const text = withoutByteOrderMark(read.text);
  const originOfLine = lineOriginLookup(lineOrigins);
  // The diary is Reverie's own account, not notes: its lines have no dates to search by.
  const lineDates = () => (file.source === 'memory' ? resolveLineDates(file.path, text) : []);
  if (!options.force && previous && previous.status === 'indexed' && previous.sha256 === sha256 && previous.source === file.source) {
    return { row, chunks: null, lineDates: options.refreshLineDates ? lineDates() : undefined, outcome: 'touched', bytes: 0 };
  }
  const chunks = withLineOrigins(chunkFile(file.path, text), text, originOfLine, new Date(file.mtimeMs).toISOString());
  return {
    row,
    lineDates: lineDates(),
    chunks,
    outcome: previous ? 'updated' : 'added',
    bytes: read.bytes.length,
    ...(options.hashVectorDims ? { vectors: hashVectorsOf(chunks, options.hashVectorDims) } : {}),
  };
}

// One provider per thread and size: its word cache is what makes the vectors cheap.
const hashProviders = new Map<number, HashEmbeddingProvider>();

/** The chunks' hash vectors in one array, the i-th at [i × dims, (i + 1) × dims). */
function hashVectorsOf(chunks: readonly Chunk[], dims: number): Float32Array {
  let provider = hashProviders.get(dims);
  if (!provider) hashProviders.set(dims, (provider = new HashEmbeddingProvider(dims)));
  const out = new Float32Array(chunks.length * dims);
  chunks.forEach((c, i) => out.set(provider.embedSync(c.text), i * dims));
  return out;
}

/**
 * Imported memory is chunked by entry (Hermes `§` entries, Codex front-matter blocks, Claude
 * index lines), so a search hit is one entry, not a whole file. Each entry's segment also
 * holds the separator or front-matter lines before it (and blank entries between), so every
 * line of an entry's file is indexed.
 */
function chunkFile(path: string, text: string): Chunk[] {
  const imported = importedMemoryOf(path);
  if (!imported) return chunkMarkdown(text);
  const entries = parseImportedEntries(imported.tool, imported.rest, text).sort((a, b) => a.startLine - b.startLine);
  // No entry (a Hermes file of `§` separators and blank lines): nothing to find, no blank chunk.
  if (entries.length === 0) return [];
  if (entries.length === 1) return chunkMarkdown(text);
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const chunks: Chunk[] = [];
  let start = 1;
  entries.forEach((entry, i) => {
    const end = i === entries.length - 1 ? lines.length : Math.max(entry.endLine, start);
    if (end < start) return;
    for (const c of chunkMarkdown(lines.slice(start - 1, end).join('\n'))) {
      chunks.push({ startLine: c.startLine + start - 1, endLine: c.endLine + start - 1, text: c.text });
    }
    start = end + 1;
  });
  return chunks;
}

/**
 * Lines Reverie wrote itself keep the class recorded when it wrote them; every other line of a
 * workspace file is the person's (`owner`). A chunk takes the least trusted class of its lines.
 */
function withLineOrigins(chunks: Chunk[], text: string, originOfLine: ((line: string) => OriginClass) | null, observedAt: string): IndexedChunk[] {
  if (!originOfLine) return chunks.map((c) => ({ ...c, origin: 'owner', observedAt }));
  const origins = text.split('\n').map(originOfLine);
  return chunks.map((c) => ({ ...c, origin: leastTrusted(origins.slice(c.startLine - 1, c.endLine)), observedAt }));
}

function formatMB(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
