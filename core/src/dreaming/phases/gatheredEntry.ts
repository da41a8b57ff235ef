import type { OriginClass, SessionKind } from '../../contract/index.js';
import type { EntryRecall } from '../recall/recallStats.js';
import type { StoredEntryKind } from '../../index/entryKinds.js';

/** An entry the light phase found recalled or written, located in its current file. */
export interface GatheredEntry {
  key: string;
  path: string;
  source: 'memory' | 'dreams' | 'sessions';
  startLine: number;
  endLine: number;
  raw: string;
  text: string;
  heading: string | null;
  entryHash: string;
  origin: OriginClass;
  sessionKind: SessionKind | null;
  imported: boolean;
  recall: EntryRecall | null;
  writtenAt: number | null;
  /**
   * Whether `writtenAt` is the entry's own date: it appeared in its file after Reverie first read
   * the file. Entries already there on that first read only carry the file's mtime then (an old
   * notes file touched yesterday is not yesterday's note), so their day is unknown.
   */
  writtenAtDatesEntry: boolean;
  /** Local days on which it was recalled or written. */
  days: Set<string>;
  conceptTags: string[];
  /** Concepts plus the longest content words: how much the entry says (the score's richness). */
  contentTerms: number;
  /** Inline annotations (`<!-- trigger: … -->`, `<!-- importance: N -->`) carried into curated memory. */
  annotations: string[];
  /** The kind the index gives this text (stored, or read by its rules while the file's kinds are still to be derived); null: the sweep classifies it. */
  storedKind: StoredEntryKind | null;
  /** Keys of near-identical entries folded into this one. */
  duplicateKeys: string[];
}
