import type { OriginClass } from '../contract/index.js';
import { sha256Hex } from '../platform/hash.js';
import { lineOriginLookup } from '../provenance/lineHash.js';
import { classifyFileEntries, type StoredEntryKind } from './entryKinds.js';
import { withoutByteOrderMark, type ReadOutcome } from './fileReader.js';

/** One indexed memory file whose entries' kinds are to be derived, with the recorded origins of its lines. */
export interface EntryKindsJob {
  path: string;
  absPath: string;
  lineOrigins: ReadonlyMap<string, OriginClass> | undefined;
}

/** A file's entry kinds and the hash of the bytes they were read from; null when the file is no longer text to read (gone, unreadable). */
export type ClassifiedFile = { path: string; sha256: string; kinds: StoredEntryKind[] } | null;

/**
 * The kinds of a file that was read, the same pure step on the engine thread or a kinds thread
 * (entryKindsWorker.ts): the engine thread writes them only if `sha256` is still the indexed text's.
 */
export function classifiedFromRead(job: EntryKindsJob, read: ReadOutcome): ClassifiedFile {
  if (read.kind !== 'text') return null;
  return { path: job.path, sha256: sha256Hex(read.bytes), kinds: kindsOfReadText(job.path, read.text, job.lineOrigins) };
}

/** The kinds of a file's entries from its text as read (a leading byte-order mark is not part of the first line). */
export function kindsOfReadText(path: string, text: string, lineOrigins: ReadonlyMap<string, OriginClass> | undefined): StoredEntryKind[] {
  return classifyFileEntries(path, withoutByteOrderMark(text), lineOriginLookup(lineOrigins));
}
