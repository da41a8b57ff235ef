import type Database from 'better-sqlite3';
import { leastTrusted, type OriginClass } from '../../contract/index.js';
import { HashEmbeddingProvider } from '../../embed/hashProvider.js';
import { CURATED_FILES } from '../../workspace/layout.js';
import { isInManagedBlock } from './managedBlocks.js';
import type { MarkdownEntry } from '../../workspace/markdownEntries.js';
import { readEntryTerms } from '../conceptTags.js';
import { withoutTranscriptPrefix } from '../conversationTurn.js';
import { daysAgo, localDay } from '../../platform/localDay.js';
import type { DocumentReader } from '../recall/documentLines.js';
import { candidateKey, entryHashOf } from '../recall/entryKeys.js';
import { entryRef, type EntryRecall } from '../recall/recallStats.js';
import { entryOrigin } from '../../provenance/lineOrigin.js';
import { indexedKindOf } from '../../index/entryKinds.js';
import type { GatheredEntry } from './gatheredEntry.js';
import { inTimeSlices } from '../../platform/timeSlices.js';

/**
 * A candidate stays alive while it keeps being recalled (or was just written): a week, so a
 * weekend or a few days off do not drop what the week's searches kept finding, and what nobody
 * looked for in a week leaves the queue (STAGED_EXPIRY_DAYS is the same week).
 */
export const LIGHT_LOOKBACK_DAYS = 7;
/** Near-identical entries (cosine of their hashed word/trigram vectors) are one candidate. */
export const DUPLICATE_SIMILARITY = 0.9;
const INLINE_ANNOTATION = /<!--\s*(?:trigger|importance|project):[^>]*-->/gi;

export interface LightPhaseInput {
  dreamDb: Database.Database;
  indexDb: Database.Database;
  reader: DocumentReader;
  recall: Map<string, EntryRecall>;
  now: number;
  lookbackDays?: number;
}

export interface LightPhaseResult {
  lookbackDays: number;
  /** Distinct entries gathered (recalled or written in the window, or staged earlier). */
  gathered: GatheredEntry[];
  duplicates: GatheredEntry[];
  /** Recalled or written in the window but already promoted, rejected, rolled back or waiting for review. */
  alreadyDecided: number;
}

/** Runs work on the engine's thread without holding it: a turn of the event loop about every 10 ms. */
const inSlices = <T>(items: Iterable<T>, step: (item: T) => void): Promise<number> => inTimeSlices(items, (work) => work(), step);

/**
 * Light sleep: gather entries recalled or written in the window, plus those staged earlier, and
 * fold near-duplicates. Thousands of entries on a large workspace, so it runs in time slices.
 */
export async function runLightPhase(input: LightPhaseInput): Promise<LightPhaseResult> {
  const { dreamDb, indexDb, reader, recall, now } = input;
  const lookbackDays = input.lookbackDays ?? LIGHT_LOOKBACK_DAYS;
  const since = daysAgo(now, lookbackDays);
  const refs = new Map<string, { path: string; hash: string; startLine: number }>();

  for (const r of recall.values()) if (r.lastAt >= since) refs.set(entryRef(r.path, r.entryHash), { path: r.path, hash: r.entryHash, startLine: r.startLine });
  for (const row of dreamDb.prepare('SELECT path, entry_hash, first_seen_at FROM entry_first_seen WHERE first_seen_at >= ?').all(since) as Array<{
    path: string;
    entry_hash: string;
    first_seen_at: number;
  }>) {
    refs.set(entryRef(row.path, row.entry_hash), { path: row.path, hash: row.entry_hash, startLine: 1 });
  }
  const decided = new Set<string>();
  for (const row of dreamDb.prepare('SELECT path, entry_hash, status FROM staged_candidates').all() as Array<{ path: string; entry_hash: string; status: string }>) {
    const ref = entryRef(row.path, row.entry_hash);
    if (row.status === 'staged') refs.set(ref, { path: row.path, hash: row.entry_hash, startLine: recall.get(ref)?.startLine ?? 1 });
    else decided.add(ref);
  }
  const seenLookup = dreamDb.prepare('SELECT first_seen_at FROM entry_first_seen WHERE path = ? AND entry_hash = ?');
  const firstReadLookup = dreamDb.prepare('SELECT MIN(first_seen_at) AS at FROM entry_first_seen WHERE path = ?');
  const firstReadOf = new Map<string, number | null>();
  /** When Reverie first read the file: every entry already in it then carries the file's mtime of that moment, not its own date. */
  const firstRead = (path: string): number | null => {
    if (!firstReadOf.has(path)) firstReadOf.set(path, (firstReadLookup.get(path) as { at: number | null } | undefined)?.at ?? null);
    return firstReadOf.get(path)!;
  };

  const gathered: GatheredEntry[] = [];
  let alreadyDecided = 0;
  await inSlices(refs, ([ref, { path, hash, startLine }]) => {
    if (CURATED_FILES.has(path)) return;
    if (decided.has(ref)) {
      alreadyDecided++;
      return;
    }
    const doc = reader.read(path);
    if (!doc || doc.source === 'dreams') return;
    const entry = locate(doc.entries, hash, startLine);
    if (!entry) return; // edited or deleted since: nothing left to promote
    if (doc.source === 'memory' && isInManagedBlock(doc.lines, entry.startLine)) return;
    const stats = recall.get(ref) ?? null;
    const writtenAt = (seenLookup.get(path, hash) as { first_seen_at: number } | undefined)?.first_seen_at ?? null;
    const firstReadAt = writtenAt === null ? null : firstRead(path);
    const days = new Set(stats?.days ?? []);
    if (writtenAt !== null) days.add(localDay(writtenAt));
    const lines = doc.lines.slice(entry.startLine - 1, entry.endLine);
    const { origin, sessionKind } = entryOrigin(indexDb, path, doc.source, entry.startLine, entry.endLine, lines);
    const imported = path.startsWith('memory/imports/');
    const terms = readEntryTerms(withoutTranscriptPrefix(entry.body));
    gathered.push({
      key: candidateKey(path, entry.startLine, entry.endLine),
      path,
      source: doc.source,
      startLine: entry.startLine,
      endLine: entry.endLine,
      raw: entry.raw,
      text: doc.source === 'sessions' ? withoutTranscriptPrefix(entry.body) : entry.body,
      heading: entry.heading,
      entryHash: hash,
      origin,
      sessionKind,
      imported,
      recall: stats,
      writtenAt,
      writtenAtDatesEntry: writtenAt !== null && firstReadAt !== null && writtenAt > firstReadAt,
      days,
      conceptTags: terms.concepts,
      contentTerms: terms.contentTerms.length,
      annotations: honoursAnnotations(origin, imported) ? [...entry.raw.matchAll(INLINE_ANNOTATION)].map((m) => m[0]) : [],
      storedKind: doc.source === 'memory' ? indexedKindOf(indexDb, path, entry, origin === 'owner') : null,
      duplicateKeys: [],
    });
  });
  gathered.sort((a, b) => (b.recall?.count ?? 0) - (a.recall?.count ?? 0) || (a.writtenAt ?? 0) - (b.writtenAt ?? 0) || a.key.localeCompare(b.key));
  const { kept, duplicates } = await foldNearDuplicates(gathered);
  return { lookbackDays, gathered: kept, duplicates, alreadyDecided };
}

/**
 * Importance, trigger and project markers are carried into curated memory from the person's own
 * lines, and from imported memory (their other tools' files, only ever proposed for review);
 * never from a line an agent wrote, whatever it hid in it.
 */
function honoursAnnotations(origin: OriginClass, imported: boolean): boolean {
  return origin === 'owner' || imported;
}

/** Each parsed document's entries by their hash, built once: a sweep looks up thousands of entries in the same few notes. */
const entriesByHash = new WeakMap<readonly MarkdownEntry[], Map<string, MarkdownEntry[]>>();

function locate(entries: readonly MarkdownEntry[], hash: string, nearLine: number): MarkdownEntry | null {
  let index = entriesByHash.get(entries);
  if (!index) {
    index = new Map();
    for (const entry of entries) {
      const h = entryHashOf(entry);
      if (h === null) continue;
      const list = index.get(h);
      if (list) list.push(entry);
      else index.set(h, [entry]);
    }
    entriesByHash.set(entries, index);
  }
  let best: MarkdownEntry | null = null;
  for (const entry of index.get(hash) ?? []) {
    if (!best || Math.abs(entry.startLine - nearLine) < Math.abs(best.startLine - nearLine)) best = entry;
  }
  return best;
}

/**
 * The first (most recalled) of near-identical entries absorbs the others' signals.
 * (Exported for its test against the plain pairwise comparison.)
 *
 * Hashed vectors are sparse (a line touches a few dozen of their dimensions), so each entry's
 * similarity to every kept entry is summed through per-dimension lists of the kept entries:
 * the same sums, in the same order, as a dot product with each, without the quadratic scan
 * that held the engine's thread for seconds on a 10,000-entry sweep.
 */
export async function foldNearDuplicates(entries: GatheredEntry[]): Promise<{ kept: GatheredEntry[]; duplicates: GatheredEntry[] }> {
  const hasher = new HashEmbeddingProvider();
  const postings: Array<{ entry: number[]; weight: number[] }> = Array.from({ length: hasher.dims }, () => ({ entry: [], weight: [] }));
  const similarity = new Float64Array(entries.length);
  const kept: number[] = [];
  const duplicates: GatheredEntry[] = [];
  await inSlices(entries.keys(), (i) => {
    const entry = entries[i]!;
    const vector = hasher.embedSync(entry.text);
    const touched: number[] = [];
    for (let d = 0; d < vector.length; d++) {
      const w = vector[d]!;
      if (w === 0) continue;
      const list = postings[d]!;
      for (let p = 0; p < list.entry.length; p++) {
        const k = list.entry[p]!;
        if (similarity[k] === 0) touched.push(k);
        similarity[k] = similarity[k]! + w * list.weight[p]!;
      }
    }
    let first = -1;
    for (const k of touched) {
      if (similarity[k]! >= DUPLICATE_SIMILARITY && (first === -1 || k < first)) first = k;
      similarity[k] = 0;
    }
    if (first !== -1) {
      absorb(entries[first]!, entry);
      duplicates.push(entry);
      return;
    }
    kept.push(i);
    for (let d = 0; d < vector.length; d++) {
      if (vector[d] === 0) continue;
      postings[d]!.entry.push(i);
      postings[d]!.weight.push(vector[d]!);
    }
  });
  return { kept: kept.map((i) => entries[i]!), duplicates };
}

function absorb(into: GatheredEntry, other: GatheredEntry): void {
  into.duplicateKeys.push(other.key);
  for (const d of other.days) into.days.add(d);
  if (other.recall) {
    if (!into.recall) into.recall = { ...other.recall, queries: new Set(other.recall.queries), days: new Set(other.recall.days) };
    else {
      into.recall = { ...into.recall, queries: new Set(into.recall.queries), days: new Set(into.recall.days) };
      into.recall.count += other.recall.count;
      into.recall.uses += other.recall.uses;
      into.recall.scoreSum += other.recall.scoreSum;
      for (const q of other.recall.queries) into.recall.queries.add(q);
      for (const d of other.recall.days) into.recall.days.add(d);
      into.recall.lastAt = Math.max(into.recall.lastAt, other.recall.lastAt);
      into.recall.firstAt = Math.min(into.recall.firstAt, other.recall.firstAt);
    }
  }
  // The least trusted copy decides: a duplicate from outside must not launder itself through an owner note.
  into.origin = leastTrusted([into.origin, other.origin]);
  if (!honoursAnnotations(into.origin, into.imported || other.imported)) into.annotations = [];
  if (other.sessionKind && other.sessionKind !== 'interactive') into.sessionKind = other.sessionKind;
  into.imported ||= other.imported;
}
