import { describe, expect, it } from 'vitest';
import { DUPLICATE_SIMILARITY, foldNearDuplicates } from '../src/dreaming/phases/lightPhase.js';
import type { GatheredEntry } from '../src/dreaming/phases/gatheredEntry.js';
import { HashEmbeddingProvider } from '../src/embed/hashProvider.js';
import { countingTurns } from './helpers/eventLoop.js';
import { DAY_MS, dream, dreamingWorkspaces } from './helpers/dreaming.js';

const WORDS = 'ledger billing gateway invoices exporter scheduler notifier staging backup restic postgres vpn host port owner queue alert nightly export deploy'.split(' ');

/** A deterministic mix of distinct lines and near-copies of earlier ones (a word changed or added). */
function lines(count: number): string[] {
  let x = 7;
  const next = (n: number): number => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 8) % n;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    if (out.length > 10 && next(3) === 0) {
      const base = out[next(out.length)]!.split(' ');
      if (next(2) === 0) base[next(base.length)] = WORDS[next(WORDS.length)]!;
      else base.push(WORDS[next(WORDS.length)]!);
      out.push(base.join(' '));
    } else out.push(Array.from({ length: 6 + next(8) }, () => WORDS[next(WORDS.length)]!).join(' ') + ` item${i}`);
  }
  return out;
}

function gathered(text: string, i: number): GatheredEntry {
  return {
    key: `memory/n.md:${i + 1}-${i + 1}`, path: 'memory/n.md', source: 'memory', startLine: i + 1, endLine: i + 1, raw: `- ${text}`, text, heading: null,
    entryHash: `h${i}`, origin: 'owner', sessionKind: null, imported: false, recall: null, writtenAt: null, writtenAtDatesEntry: false, days: new Set(), conceptTags: [],
    contentTerms: 0, annotations: [], storedKind: null, duplicateKeys: [],
  };
}

/** The plain rule: each entry joins the first kept entry whose vector's dot product reaches the threshold. */
function pairwise(texts: string[]): { kept: string[]; duplicateOf: Map<string, string> } {
  const hasher = new HashEmbeddingProvider();
  const vectors = texts.map((t) => hasher.embedSync(t));
  const kept: number[] = [];
  const duplicateOf = new Map<string, string>();
  texts.forEach((_, i) => {
    for (const k of kept) {
      let dot = 0;
      for (let d = 0; d < vectors[i]!.length; d++) dot += vectors[i]![d]! * vectors[k]![d]!;
      if (dot >= DUPLICATE_SIMILARITY) {
        duplicateOf.set(`memory/n.md:${i + 1}-${i + 1}`, `memory/n.md:${k + 1}-${k + 1}`);
        return;
      }
    }
    kept.push(i);
  });
  return { kept: kept.map((i) => `memory/n.md:${i + 1}-${i + 1}`), duplicateOf };
}

describe('the light phase folds near-duplicates without holding the thread', () => {
  it('keeps and folds exactly the entries the pairwise comparison does', async () => {
    const texts = lines(800);
    const expected = pairwise(texts);
    const { kept, duplicates } = await foldNearDuplicates(texts.map(gathered));
    expect(expected.duplicateOf.size).toBeGreaterThan(50); // the data has near-copies to find
    expect(kept.map((e) => e.key)).toEqual(expected.kept);
    const absorbedBy = new Map(kept.flatMap((e) => e.duplicateKeys.map((d) => [d, e.key] as const)));
    expect(duplicates.map((d) => d.key).sort()).toEqual([...expected.duplicateOf.keys()].sort());
    expect(absorbedBy).toEqual(expected.duplicateOf);
  });

  const open = dreamingWorkspaces();

  it('a sweep over thousands of new entries turns the event loop while it gathers them', async () => {
    const now = new Date(2026, 10, 29, 12).getTime();
    const notes: Record<string, string> = {};
    const all = lines(2_500);
    for (let d = 0; d < 5; d++) notes[`memory/2026-11-2${d}.md`] = `# Day ${d}\n\n${all.slice(d * 500, (d + 1) * 500).map((l) => `- ${l}`).join('\n')}\n`;
    const { service } = await open(notes, now - DAY_MS);
    const { value: run, turns } = await countingTurns(dream(service, { dryRun: true }));
    expect(run.status).not.toBe('failed');
    expect(run.phases.light.gathered).toBeGreaterThan(2_000);
    // Held in one piece, the gathering and folding turned the loop only between phases (≤ 5 times).
    expect(turns).toBeGreaterThan(10);
  });
});
