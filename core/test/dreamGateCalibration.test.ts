import { describe, expect, it } from 'vitest';
import { DEFAULT_DREAM_SETTINGS } from '../src/contract/index.js';
import type { GatheredEntry } from '../src/dreaming/phases/gatheredEntry.js';
import { runDeepPhase } from '../src/dreaming/phases/deepPhase.js';

/**
 * Issue 18, item 5: with the default gates, a fact recalled by three different real questions on
 * two days passes, and a line matched once by accident does not. Relevance 0.4 is the middle of
 * the mean search scores of the facts recalled in the curation benchmark's tuning folds.
 */
const NOW = new Date(2026, 10, 29, 3, 0, 0).getTime();
const HOUR = 3_600_000;
const TEXT = 'Lab waste goes in the blue drums in room 214B; Clean Harbors collects on the first Monday.';

function recalled(count: number, queries: number, days: string[], relevance: number): GatheredEntry {
  const path = 'memory/2026-11-20.md';
  return {
    key: `${path}:3:3`, path, source: 'memory', startLine: 3, endLine: 3, raw: `- ${TEXT}`, text: TEXT, heading: null, entryHash: 'h1', origin: 'owner',
    sessionKind: null, imported: false,
    recall: { path, entryHash: 'h1', startLine: 3, endLine: 3, count, uses: 0, scoreSum: count * relevance, queries: new Set(Array.from({ length: queries }, (_, i) => `q${i}`)), days: new Set(days), firstAt: NOW - 30 * HOUR, lastAt: NOW - 18 * HOUR },
    writtenAt: NOW - 9 * 24 * HOUR, writtenAtDatesEntry: false, days: new Set(days), conceptTags: [], contentTerms: 6, annotations: [], storedKind: null, duplicateKeys: [],
  };
}

function judged(entry: GatheredEntry) {
  const { minScore, minRecallCount, minUniqueQueries, maxPromotions } = DEFAULT_DREAM_SETTINGS;
  return runDeepPhase([entry], new Map(), { minScore, minRecallCount, minUniqueQueries, maxPromotions }, { facts: new Set(), promotedKeys: new Set() }, NOW)[0]!;
}

describe("the default gates against issue 18's bar", () => {
  it('a fact recalled by three different questions on two days passes every gate', () => {
    const ranked = judged(recalled(3, 3, ['2026-11-27', '2026-11-28'], 0.4));
    expect(ranked.candidate.gates.filter((g) => !g.passed)).toEqual([]);
    expect(ranked.passed).toBe(true);
  });

  it('a line matched once by accident, however well, does not', () => {
    const ranked = judged(recalled(1, 1, ['2026-11-28'], 0.9));
    expect(ranked.passed).toBe(false);
    expect(ranked.candidate.gates.find((g) => g.gate === 'recall-count')).toMatchObject({ passed: false });
  });
});
