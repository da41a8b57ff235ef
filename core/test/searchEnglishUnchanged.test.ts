import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { DEFAULT_HYBRID, HybridSearcher } from '../src/search/hybridSearch.js';
import { KeywordSearcher } from '../src/search/keywordSearch.js';
import { openSqlite } from '../src/platform/sqliteDriver.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

/**
 * English notes must be searched exactly as before unspaced scripts (Japanese, Chinese, Thai)
 * got their own index (issue 18): the top 10 of keyword and hybrid search, with scores and
 * snippets, on a generated English workspace, against the lists recorded before the change.
 * Set REVERIE_RECORD_ENGLISH_TOP10=1 to record them again (only for a change meant to move them).
 */
const GOLDEN = path.join(import.meta.dirname, 'fixtures', 'search', 'english-top10.json');

const PEOPLE = ['Sam', 'Priya', 'Marco', 'Dana', 'Jolene', 'Dave', 'John', 'Ines'];
const THINGS = ['the staging box', 'the ledgerd release', 'the restic backups', 'the Postgres upgrade', 'the nightly reconciliation job', 'the TLS certificate', 'the Acme go-live checklist', 'the Kestrel dashboard', 'the VPN', 'the deploy workflow'];
const VERBS = ['fixed', 'reviewed', 'broke', 'moved', 'scheduled', 'discussed', 'tested', 'documented', 'upgraded', 'postponed'];
const TAILS = ['after lunch', 'because restarts were unreliable', 'before the demo', 'with the new runner', 'on port 8443', 'for the audit', 'while the build was red', 'again, sadly', 'in the morning standup', 'over coffee'];
const QUERIES = [
  'restic backups atlas', 'who broke the staging box?', 'when was the Postgres upgrade scheduled', 'TLS certificate port 8443',
  'nightly reconciliation job', 'Kestrel dashboard review', 'Priya deploy workflow', 'what did Sam test before the demo',
  'ledgerd release moved', 'Piranesi', 'dentist Thursday', 'upgrading postgres', 'VPN audit', 'Acme go-live checklist documented',
  'docker comp', 'coffee', 'why were restarts unreliable', 'Marco and Dana', 'the', 'build was red runner',
  'what did Priya fix in June 2026', 'staging box on 2026-06-03',
];
/** Hybrid scores decay with a note's age: a fixed clock keeps them the same from run to run. */
const NOW = Date.UTC(2026, 11, 6, 12);

/** A deterministic pseudo-random sequence (mulberry32), so the workspace is the same on every run. */
function sequence(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function englishWorkspace(): Record<string, string> {
  const next = sequence(18);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const notes: Record<string, string> = { ...SAMPLE_NOTES };
  for (let day = 0; day < 120; day++) {
    const date = new Date(Date.UTC(2026, 4, 1) + day * 86_400_000).toISOString().slice(0, 10);
    const lines = Array.from({ length: 3 + Math.floor(next() * 6) }, () => `- ${pick(PEOPLE)} ${pick(VERBS)} ${pick(THINGS)} ${pick(TAILS)}.`);
    notes[`memory/${date}.md`] = `# ${date}\n\n${lines.join('\n')}\n`;
  }
  return notes;
}

let ws: TempWorkspace;
let service: MemoryService;
beforeAll(async () => {
  ws = createTempWorkspace(englishWorkspace());
  service = openService(ws);
  await service.invoke('index.sync', {});
});
afterAll(async () => {
  await service.close();
  ws.cleanup();
});

type Top10 = Record<string, string[]>;

async function currentLists(): Promise<{ hybrid: Top10; keyword: Top10 }> {
  const hybrid: Top10 = {};
  const keyword: Top10 = {};
  const db = openSqlite(service.indexPath, { readonly: true });
  try {
    const searcher = new KeywordSearcher(db);
    // Hybrid ranking (fusion, dates, decay, snippets) over the keyword side; vectors are not what changed.
    const hybridSearcher = new HybridSearcher(db, searcher, () => null, () => DEFAULT_HYBRID, () => NOW);
    const sources = ['memory', 'dreams', 'sessions'] as const;
    const line = (r: { path: string; startLine: number; endLine: number; score: number; snippet: string }) =>
      `${r.path}:${r.startLine}-${r.endLine} ${r.score.toFixed(6)} ${JSON.stringify(r.snippet)}`;
    for (const query of QUERIES) {
      hybrid[query] = (await hybridSearcher.search({ query, limit: 10, sources })).map(line);
      keyword[query] = searcher.search({ query, limit: 10, sources }).map(line);
    }
  } finally {
    db.close();
  }
  return { hybrid, keyword };
}

describe('English search is unchanged by the unspaced-script index', () => {
  it('gives the same top 10 (order, scores, lines and snippets) as before, keyword and hybrid', async () => {
    const lists = await currentLists();
    if (process.env.REVERIE_RECORD_ENGLISH_TOP10 === '1') fs.writeFileSync(GOLDEN, `${JSON.stringify(lists, null, 1)}\n`);
    const recorded = JSON.parse(fs.readFileSync(GOLDEN, 'utf8')) as { hybrid: Top10; keyword: Top10 };
    expect(Object.keys(recorded.hybrid)).toEqual(QUERIES);
    // Not vacuous: most queries find something.
    expect(QUERIES.filter((q) => (recorded.keyword[q]?.length ?? 0) > 0).length).toBeGreaterThan(15);
    for (const query of QUERIES) {
      expect(lists.keyword[query], `keyword top 10 of "${query}"`).toEqual(recorded.keyword[query]);
      expect(lists.hybrid[query], `hybrid top 10 of "${query}"`).toEqual(recorded.hybrid[query]);
    }
  });
});
