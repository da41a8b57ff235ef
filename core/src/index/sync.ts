import type { SyncReport } from '../contract/index.js';
import { sha256Hex } from '../platform/hash.js';
import { inTimeSlices, yieldToEventLoop } from '../platform/timeSlices.js';
import { discoverChangedPaths, discoverWorkspace, type DiscoveredFile, type DiscoveryOptions } from '../workspace/discovery.js';
import { CHUNKER_VERSION, chunkMarkdown, type Chunk } from './chunker.js';
import { readMarkdownFile, withoutByteOrderMark, type ReadBytes } from './fileReader.js';
import type { FileRow, IndexedChunk, IndexStore } from './indexStore.js';
import { ENTRY_KINDS_VERSION } from './entryKinds.js';
import { LINE_DATES_VERSION, resolveLineDates, type LineDate } from './lineDates.js';
import { explainDiskFull } from './diskFull.js';
import { lineOriginLookup } from '../provenance/lineHash.js';
import { parseImportedEntries } from '../workspace/importedEntries.js';
import { importedMemoryOf } from '../workspace/layout.js';
import { leastTrusted, type OriginClass } from '../contract/index.js';

export interface SyncProgress {
  /** `migrate`: an index of an older layout is rewritten as it opens (database.ts), before any sync. */
  phase: 'discover' | 'index' | 'sessions' | 'embed' | 'migrate';
  done: number;
  total: number;
  path: string | null;
}

export interface SyncOptions {
  force?: boolean;
  maxFileBytes: number;
  onProgress?: (progress: SyncProgress) => void;
  /** Test seam: how file bytes are read. */
  readBytes?: ReadBytes;
  /** Checked between waves of files: the host is closing, leave the rest for the next sync. */
  shouldStop?: () => boolean;
  /**
   * Only these paths changed (absolute files or folders, as the watcher reports them): they are
   * discovered and compared, the rest of the index is left as it is. A sync that must read every
   * file anyway (a new chunker or line-date rules, a forced or first sync) ignores it.
   */
  changedPaths?: readonly string[];
}

// Bounded so that one sync never holds the whole corpus in memory; writes go in short transactions.
const READ_CONCURRENCY = 16;
const BATCH_FILES = 256;
const BATCH_BYTES = 8 * 1024 * 1024;
const PROGRESS_INTERVAL_MS = 100;

interface Prepared {
  row: FileRow;
  chunks: IndexedChunk[] | null;
  /** The dates its lines speak of, resolved against the note's date, for a file that was read (Markdown the person or their tools wrote). */
  lineDates?: LineDate[];
  outcome: 'added' | 'updated' | 'unchanged' | 'touched' | 'skipped' | 'failed' | 'vanished';
  bytes: number;
}

/**
 * Brings the index in line with the disk: unchanged files (same mtime and size, or same
 * hash) are skipped, vanished ones removed, changed ones re-chunked in one transaction.
 * Yields to the event loop between batches so a host stays responsive.
 */
export async function syncIndex(store: IndexStore, discovery: DiscoveryOptions, options: SyncOptions): Promise<SyncReport> {
  const started = performance.now();
  const report: SyncReport = {
    files: 0, chunks: 0, added: 0, updated: 0, removed: 0, unchanged: 0, skipped: 0, failed: 0,
    durationMs: 0, problems: [], notices: [],
  };
  options.onProgress?.({ phase: 'discover', done: 0, total: 0, path: null });
  // Index identity: which workspace this index describes and how it was chunked.
  if (store.getMeta('workspace_root') === null) {
    store.setMeta('workspace_root', discovery.workspaceRoot);
    store.setMeta('created_at', new Date().toISOString());
  }
  if (store.getMeta('chunker') !== CHUNKER_VERSION) {
    if (store.getMeta('chunker') !== null) report.notices.push('The chunker changed since the last index: every file is re-chunked.');
    options = { ...options, force: true };
  }
  // Entry kinds made by other rules are due again: derived after search is ready, like every file's kinds (entryKindsStep.ts).
  if (store.getMeta('entry_kinds') !== ENTRY_KINDS_VERSION) {
    store.transaction(() => {
      store.clearKinds();
      store.setMeta('entry_kinds', ENTRY_KINDS_VERSION);
    });
  }
  // Line dates made by other rules (or none yet, after the upgrade that added them): every file is read again, not re-chunked.
  const refreshLineDates = store.getMeta('line_dates') !== LINE_DATES_VERSION;
  const changed = options.changedPaths && !options.force && !refreshLineDates && store.getMeta('last_sync_at') !== null ? discoverChangedPaths(discovery, options.changedPaths) : null;
  const { files, warnings } = changed ?? discoverWorkspace(discovery);
  report.notices.push(...warnings);

  // Transcripts are indexed by the sessions ingester, not from the workspace: leave them alone.
  const known = new Map([...(changed ? store.filesWithin(changed.covered) : store.allFiles())].filter(([, row]) => row.source !== 'sessions'));
  const lineOrigins = store.lineProvenance(changed ? files.map((f) => f.path) : undefined);
  const forgotten = store.forgottenPaths();
  const discoveredPaths = new Set(files.map((f) => f.path));
  const gone = [...known.keys()].filter((p) => !discoveredPaths.has(p));
  if (gone.length > 0) {
    store.transaction(() => gone.forEach((p) => store.removeFile(p)));
    report.removed += gone.length;
  }

  let done = 0;
  let lastProgress = 0;
  const progress = (path: string | null, force = false): void => {
    const now = performance.now();
    if (!force && now - lastProgress < PROGRESS_INTERVAL_MS) return;
    lastProgress = now;
    options.onProgress?.({ phase: 'index', done, total: files.length, path });
  };

  const pending: Prepared[] = [];
  let pendingBytes = 0;
  const flush = async (): Promise<void> => {
    if (pending.length === 0) return;
    await commitPending().catch((error: unknown) => {
      throw explainDiskFull(error, store.db.name, store.counts().indexed, files.length);
    });
  };
  const commitPending = async (): Promise<void> => {
    await inTimeSlices(pending, (work) => store.transaction(() => store.writeFilesTogether(work)), (p) => {
      if (p.outcome === 'vanished') store.removeFile(p.row.path);
      else if (p.outcome === 'touched') {
        store.touchFile(p.row.path, p.row.mtimeMs, p.row.size);
        if (p.lineDates) store.writeLineDates(p.row.path, p.lineDates);
      } else if (p.outcome !== 'unchanged') store.writeFile(p.row, p.chunks, p.lineDates ?? null);
    });
    pending.length = 0;
    pendingBytes = 0;
  };

  const tally = (p: Prepared): void => {
    switch (p.outcome) {
      case 'added': report.added++; break;
      case 'updated': report.updated++; break;
      case 'unchanged': case 'touched': report.unchanged++; break;
      case 'vanished': if (known.has(p.row.path)) report.removed++; break;
      case 'skipped': report.skipped++; report.problems.push({ path: p.row.path, status: 'skipped', reason: p.row.reason ?? '' }); break;
      case 'failed': report.failed++; report.problems.push({ path: p.row.path, status: 'failed', reason: p.row.reason ?? '' }); break;
    }
  };

  // A cursor, not shift(): shifting a 100,000-entry array copies it each time (5 s of a no-op sync).
  let next = 0;
  const prepareNext = async (): Promise<Prepared | null> => {
    const file = files[next++];
    if (!file) return null;
    if (forgotten.has(file.path)) {
      return { row: { ...rowFor(file), status: 'skipped', reason: 'forgotten (reverie forget); remove the tombstone to index it again' }, chunks: null, outcome: 'skipped', bytes: 0 } satisfies Prepared;
    }
    return prepareFile(file, known.get(file.path), { ...options, refreshLineDates }, lineOrigins.get(file.path));
  };

  // A small pool of readers; results are committed in file order batches.
  while (next < files.length && !options.shouldStop?.()) {
    const wave: Promise<Prepared | null>[] = [];
    for (let i = 0; i < READ_CONCURRENCY && next < files.length; i++) wave.push(prepareNext());
    for (const prepared of await Promise.all(wave)) {
      if (!prepared) continue;
      done++;
      tally(prepared);
      if (prepared.outcome !== 'unchanged') {
        pending.push(prepared);
        pendingBytes += prepared.bytes;
      }
      progress(prepared.row.path);
    }
    if (pending.length >= BATCH_FILES || pendingBytes >= BATCH_BYTES) await flush();
    await yieldToEventLoop(); // reading and chunking a wave of files is work too
  }
  await flush();
  progress(null, true);

  const counts = store.counts();
  report.files = counts.files;
  report.chunks = counts.chunks;
  report.durationMs = Math.round(performance.now() - started);
  store.setMeta('last_sync_at', new Date().toISOString());
  store.setMeta('chunker', CHUNKER_VERSION);
  // A stopped sync leaves files unread: their line dates are refreshed by the next one.
  if (!options.shouldStop?.()) store.setMeta('line_dates', LINE_DATES_VERSION);
  return report;
}

function rowFor(file: DiscoveredFile): FileRow {
  return {
    path: file.path, absPath: file.absPath, source: file.source, sha256: null,
    mtimeMs: file.mtimeMs, size: file.size, status: 'indexed', reason: null,
  };
}

async function prepareFile(
  file: DiscoveredFile,
  previous: FileRow | undefined,
  options: SyncOptions & { refreshLineDates: boolean },
  lineOrigins: ReadonlyMap<string, OriginClass> | undefined,
): Promise<Prepared> {
  const base = rowFor(file);
  const skip = (reason: string, sha256: string | null = null): Prepared => ({
    row: { ...base, status: 'skipped', reason, sha256 },
    chunks: null,
    outcome: 'skipped',
    bytes: 0,
  });

  if (file.skipReason) return skip(file.skipReason);
  if (file.size > options.maxFileBytes) {
    return skip(`too large (${formatMB(file.size)}; the limit is ${formatMB(options.maxFileBytes)}, setting maxFileSizeMB)`);
  }
  if (
    !options.force && !options.refreshLineDates && previous && previous.status === 'indexed' &&
    previous.mtimeMs === file.mtimeMs && previous.size === file.size && previous.absPath === file.absPath
  ) {
    return { row: previous, chunks: null, outcome: 'unchanged', bytes: 0 };
  }

  const read = await readMarkdownFile(file.absPath, options.readBytes);
  if (read.kind === 'vanished') return { row: base, chunks: null, outcome: 'vanished', bytes: 0 };
  if (read.kind === 'failed') return { row: { ...base, status: 'failed', reason: read.reason }, chunks: null, outcome: 'failed', bytes: 0 };
  if (read.kind === 'skipped') return skip(read.reason, read.bytes ? sha256Hex(read.bytes) : null);

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
  return {
    row,
    lineDates: lineDates(),
    chunks: withLineOrigins(chunkFile(file.path, text), text, originOfLine, new Date(file.mtimeMs).toISOString()),
    outcome: previous ? 'updated' : 'added',
    bytes: read.bytes.length,
  };
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
