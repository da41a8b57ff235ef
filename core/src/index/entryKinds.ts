import type Database from 'better-sqlite3';
import type { EntryKind as ContractEntryKind, EntryKindSpan, OriginClass } from '../contract/index.js';
import { sha256Hex } from '../platform/hash.js';
import { EntryKindsTable } from './entryKindsTable.js';
import { classifyEntry, type EntryKind } from '../workspace/entryKind.js';
import { markdownEntrySpans } from '../workspace/markdownEntries.js';

/** The index stores the workspace's kinds and the contract carries them: one list, checked both ways here. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const KINDS_AGREE: Same<EntryKind, ContractEntryKind> = true;
void KINDS_AGREE;

export interface StoredEntryKind extends EntryKindSpan {
  /** `entryTextHash` of the entry's lines, so a reader can tell a row about other text. */
  textHash: string;
}

const KIND_ANNOTATION = /<!--\s*kind:[^>]*-->/gi;
const DAY_IN_NAME = /(\d{4}-\d{2}-\d{2})[^/]*$/;

/** The hash a stored kind is matched by: 16 hex characters of sha256 of the entry's lines as written. */
export function entryTextHash(raw: string): string {
  return sha256Hex(raw).slice(0, 16);
}

/**
 * The kind of every entry of a Markdown file, as classifyEntry reads it (workspace/entryKind.ts
 * owns the rules), against the day in the file's name when it has one. A `<!-- kind: … -->`
 * annotation counts only on the person's own lines: a line Reverie recorded as written by an
 * agent or taken from outside cannot choose its own kind.
 */
export function classifyFileEntries(path: string, text: string, originOfLine?: ((line: string) => OriginClass) | null): StoredEntryKind[] {
  const noteDay = noteDayOf(path);
  return markdownEntrySpans(text).map((entry) => kindOfEntry(noteDay, entry, !originOfLine || entry.raw.split(/\r?\n/).every((line) => originOfLine(line) === 'owner')));
}

/** The day in a note's file name, which a relative date in its entries is read against. */
function noteDayOf(path: string): string | null {
  return DAY_IN_NAME.exec(path)?.[1] ?? null;
}

/** One entry's kind as classifyFileEntries stores it; `owned`: every line of it is the person's. */
function kindOfEntry(noteDay: string | null, entry: { startLine: number; endLine: number; raw: string }, owned: boolean): StoredEntryKind {
  const result = classifyEntry(owned ? entry.raw : entry.raw.replace(KIND_ANNOTATION, ' '), noteDay);
  return { startLine: entry.startLine, endLine: entry.endLine, textHash: entryTextHash(entry.raw), kind: result.kind, validUntil: result.validUntil, cue: result.cue };
}

/** Lines the probe reads: one or more for each kind and for the annotation, so a change of rules changes the version. */
const PROBES = [
  'The staging box is ares.internal, port 8443, behind the corp VPN.',
  'Prefer Vitest over Jest for new test suites.',
  'I always want answers under ten lines.',
  'Priya prefers short standups.',
  'Decided to move atlas from Docker Compose to systemd units.',
  'To rotate the key: first revoke the old one, then issue a new one.',
  'Lunch with Marek about the tax module.',
  'Released Kestrel 2.4 to production.',
  '[ ] renew the TLS certificate on ares.internal (expires Oct 30!)',
  'TODO: write the Acme go-live checklist',
  'Ask Dana about resetting the staging database.',
  'Why does the nightly reconciliation job spike? Need to check.',
  'Should we move invoices to PDF/A?',
  'Priya is on holiday Nov 2–6; Marco approves releases.',
  'Snowflake trial credits run out on Nov 10.',
  'The office is closed this week.',
  'Stop fixing the seed in the benchmark.',
  'My day rate is 720 EUR; never quote less.',
  'The coffee machine on the 3rd floor is broken again.',
  'Kestrel は請求サービスです。',
  'Ask about it later <!-- kind: fact -->',
  '@Arjun please review the retry PR when you can',
  'Get quotes from two more HVAC firms.',
  '( ) call the plumber about the sink',
  'Keep PRs under 400 lines; split otherwise.',
  'Question for Ingrid: async schema reviews, yes or no',
  'Temporary: deploys go through Arjun while CI is broken.',
  'Sprint review: showed the new checkout, some questions about taxes.',
  'Kickoff for the Atlas redesign today, eight people.',
  'who has the stockroom key?? -> Dale, ext 4410',
  'if the hub will not pair -> ask Dev, he set the admin password',
  'Enclosure tooling moved from Hoi Wah to Lianfa; T2 shots approved today.',
  'Thursday mornings = my writing time -> don\'t book calls then',
  'Rachel = night house supervisor Sun–Wed, cell 918-555-0142',
  'Rhys off Mon–Wed, Ffion covers',
  'mock code in room 514 at 02:00, compressions were good, airway was slow',
  'me: report at the bedside, never at the station',
  'Chiara: il brodo si fa il lunedì, sempre',
  'no comped desserts for food writers. they pay like everyone, period.',
  'Epic downtime Sun 10/25 01:00–05:00, paper charts from the downtime box',
  'dish machine down, rental unit until the tech comes 10/24',
  'changed my mind on kitchen music: fine during prep, off once the first ticket prints',
  'Pi Day pie contest: my key lime took 2nd',
  'inventory day, whole crew in at 7',
  // Lines only the statistical scorer (workspace/kindScorer.ts) reads right, so a retrained model changes the version.
  'Someone to cover the Friday shift, anyone',
  'quotes for the new boiler still to be chased',
  'maybe the timeout is the proxy, to confirm',
  'We always ask Dana before resetting staging.',
];

/**
 * What the stored kinds were made with. When classifyEntry's rules change, what they say about
 * the probe lines changes, and so must this: the next sync reads every file's kinds again
 * (without re-chunking). It is the probe lines' kinds as last recorded, not computed at start:
 * classifying them cost ~150 ms of CPU (cold regular expressions) in every process that loads
 * the index, `reverie search` and each hook included. `entryKindsVersion.test.ts` recomputes it
 * (probeKindsHash) and fails until it is updated after a rule change. A rule change that moves
 * no probe line goes unnoticed until the file changes; the probes cover every kind and the
 * annotation for that reason.
 */
export const ENTRY_KINDS_VERSION = 'f6c8ab4119f99cf7';

/** The hash of what the rules say about the probe lines now (tests compare it with ENTRY_KINDS_VERSION). */
export function probeKindsHash(): string {
  return sha256Hex(JSON.stringify(PROBES.map((line) => classifyEntry(line, '2026-10-20')))).slice(0, 16);
}

const tables = new WeakMap<Database.Database, EntryKindsTable>();

function tableOf(db: Database.Database): EntryKindsTable {
  let table = tables.get(db);
  if (!table) {
    table = new EntryKindsTable(db);
    tables.set(db, table);
  }
  return table;
}

/**
 * The kind the index stored for an entry, when the row is about this very text (the file may
 * have changed since it was indexed: then null, and the reader classifies the text itself).
 */
export function storedKindOf(db: Database.Database, path: string, entry: { startLine: number; endLine: number; raw: string }): StoredEntryKind | null {
  const stored = tableOf(db).at(path, entry.startLine);
  if (!stored || stored.endLine !== entry.endLine || stored.textHash !== entryTextHash(entry.raw)) return null;
  return stored;
}

/**
 * The kind the index gives an entry of a memory file: the stored one, or, while the file's kinds
 * are still to be derived (after an index or an edit, entryKindsStep.ts), the one it will store,
 * read now by the same rules. Read now rather than waited for: a sweep judges a few hundred
 * entries (~20 µs each to classify), while the derived pass after a first index of 20,000 notes
 * takes minutes. Null when the stored row is about other text (the file changed on disk since
 * it was indexed): the reader classifies the text itself, as before. `owned`: every line of the
 * entry is the person's (a line an agent wrote cannot choose its own kind).
 */
export function indexedKindOf(db: Database.Database, path: string, entry: { startLine: number; endLine: number; raw: string }, owned: boolean): StoredEntryKind | null {
  if (tableOf(db).derivedFor(path) === null) return kindOfEntry(noteDayOf(path), entry, owned);
  return storedKindOf(db, path, entry);
}
