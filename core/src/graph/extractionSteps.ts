import fs from 'node:fs';
import type Database from 'better-sqlite3';
import { FileProvenance } from './entryProvenance.js';
import { extractFile, type ExtractionContext } from './extractFile.js';
import type { ExtractedFile, ExtractionPool } from './extractionPool.js';
import type { GraphWriter } from './graphWriter.js';
import { sourceToolOf } from './sourceTool.js';
import type { ExtractedEntry } from './types.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('graph');

/** A memory file as the index has it. */
export interface IndexedFile {
  path: string;
  abs_path: string;
  sha256: string;
  mtime_ms: number;
}

/** A file's entries by the rules (`mtime` dates entries of a note without a date of its own). */
export function extractIndexedFile(file: IndexedFile, text: string, context: ExtractionContext): ExtractedEntry[] {
  return extractFile(file.path, text, new Date(file.mtime_ms).toISOString().slice(0, 10), context);
}

/** One step per file read and extracted, per entry written, and per file recorded as done. */
export function* extractionSteps(
  db: Database.Database,
  writer: GraphWriter,
  files: readonly IndexedFile[],
  forget: ((path: string) => void) | null,
  context: ExtractionContext,
): Generator<() => void> {
  for (const file of files) {
    const read: { text: string | null } = { text: null };
    yield () => {
      forget?.(file.path); // evidence of an earlier version, or of a cut-off extraction
      try {
        read.text = fs.readFileSync(file.abs_path, 'utf8');
      } catch (error) {
        // Vanished since indexing: the next sync removes it from the index, and then from here.
        log.debug('A file for graph extraction could not be read', { path: file.path, error });
      }
    };
    if (read.text === null) continue;
    yield* entrySteps(db, writer, file, read.text, extractIndexedFile(file, read.text, context));
  }
}

/** Files handed to the extraction threads ahead of the one being written: enough to keep both busy, few enough to hold in memory. */
const EXTRACTED_AHEAD = 64;

/**
 * Files extracted before a slice starts writing them (or all that are left): about a slice's worth
 * of writes. The engine thread writes faster than two threads extract, so a slice started at each
 * file that arrived wrote a few files and committed (606 slices for 2,000 notes instead of 351).
 */
const READY_BEFORE_SLICE = 8;

/**
 * The same steps as `extractionSteps`, with the files read and extracted on `pool`'s threads
 * ahead of the writes: `runSteps` (the update's time slices) writes whatever is extracted, in
 * the files' order, so the graph is the one the engine thread alone would write. Returns early
 * when `shouldStop` says so; what was not written is extracted again by the next update.
 */
export async function writeExtractedInOrder(
  db: Database.Database,
  writer: GraphWriter,
  files: readonly IndexedFile[],
  forget: ((path: string) => void) | null,
  context: ExtractionContext,
  pool: ExtractionPool,
  runSteps: (steps: Iterable<() => void>) => Promise<unknown>,
  shouldStop?: () => boolean,
): Promise<void> {
  const results: Array<{ file: ExtractedFile } | { error: Error } | undefined> = [];
  const arrived: Array<Promise<void>> = [];
  let submitted = 0;
  const submitUpTo = (n: number) => {
    for (; submitted < Math.min(n, files.length); submitted++) {
      const i = submitted;
      // Settled into `results` at once: a failure ahead of the writes is thrown when its turn comes, never unhandled.
      arrived[i] = pool.extract(files[i]!, context).then(
        (file) => void (results[i] = { file }),
        (error: Error) => void (results[i] = { error }),
      );
    }
  };
  let next = 0;
  // The steps of the files extracted so far, in order; ends at the first file still being extracted.
  function* readySteps(): Generator<() => void> {
    while (next < files.length && results[next] !== undefined) {
      const file = files[next]!;
      const result = results[next]!;
      results[next] = undefined;
      next++;
      submitUpTo(next + EXTRACTED_AHEAD);
      if ('error' in result) throw result.error;
      yield () => forget?.(file.path); // evidence of an earlier version, or of a cut-off extraction
      if (result.file.text === null) {
        // Vanished since indexing: the next sync removes it from the index, and then from here.
        log.debug('A file for graph extraction could not be read', { path: file.path, error: result.file.unreadable });
        continue;
      }
      yield* entrySteps(db, writer, file, result.file.text, result.file.entries);
    }
  }
  submitUpTo(EXTRACTED_AHEAD);
  while (next < files.length) {
    await Promise.all(arrived.slice(next, next + READY_BEFORE_SLICE));
    if (shouldStop?.()) return;
    await runSteps(readySteps());
    if (shouldStop?.()) return;
  }
}

/**
 * Writes a file's entries again, e.g. with a chat model's items added: forgets what the graph
 * held for it first, and records it as extracted only after its last entry, so a stop midway
 * leaves it to be extracted again. `onDone` runs in the step that records it.
 */
export function* rewriteSteps(
  db: Database.Database,
  writer: GraphWriter,
  file: IndexedFile,
  text: string,
  entries: readonly ExtractedEntry[],
  forget: (path: string) => void,
  onDone: () => void,
): Generator<() => void> {
  yield () => forget(file.path);
  yield* entrySteps(db, writer, file, text, entries, onDone);
}

function* entrySteps(
  db: Database.Database,
  writer: GraphWriter,
  file: IndexedFile,
  text: string,
  entries: readonly ExtractedEntry[],
  onDone?: () => void,
): Generator<() => void> {
  let provenance: FileProvenance | null = null;
  const tool = sourceToolOf(file.path);
  for (const entry of entries)
    yield () => {
      provenance ??= new FileProvenance(db, file.path, text);
      writer.writeEntry(entry, { path: file.path, tool, ...provenance.of(entry.startLine, entry.endLine) });
    };
  // Recorded as done only once its mentions are in the table (the writer may hold them back a while).
  yield () =>
    writer.whenWritten(() => {
      recordFileStatement(db).run(file.path, file.sha256, entries.length, Date.now());
      onDone?.();
    });
}

const recordFileStatements = new WeakMap<Database.Database, Database.Statement>();

/** Prepared once per database: a first extraction records thousands of files. */
function recordFileStatement(db: Database.Database): Database.Statement {
  let statement = recordFileStatements.get(db);
  if (!statement) recordFileStatements.set(db, (statement = db.prepare('INSERT OR REPLACE INTO graph_files (path, sha256, entries, extracted_at) VALUES (?, ?, ?, ?)')));
  return statement;
}
