import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResult } from '../src/contract/index.js';
import { createAfterSearch } from '../src/dreaming/recall/searchWorkerRecall.js';
import { HashEmbeddingProvider } from '../src/embed/hashProvider.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { loadVectorExtension, VectorStore } from '../src/index/vectorStore.js';
import { openSqlite } from '../src/platform/sqliteDriver.js';
import { DEFAULT_HYBRID, HybridSearcher } from '../src/search/hybridSearch.js';
import { KeywordSearcher } from '../src/search/keywordSearch.js';
import { englishWorkspace, GOLDEN_NOW, PEOPLE, sequence, THINGS, VERBS } from './helpers/englishWorkspace.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

/**
 * Speed work on the search path (issue 21 item 8) must not change a single answer: what a search
 * worker computes for distinct questions (hybrid results with the hash vectors, scores,
 * breakdowns, snippets, budgets, and the entries each result recalled for dreaming) against
 * the answers recorded before that work. Set REVERIE_RECORD_SEARCH_ANSWERS=1 to record them
 * again (only for a change meant to move them).
 */
const GOLDEN = path.join(import.meta.dirname, 'fixtures', 'search', 'distinct-answers.json');

/** Questions as agents ask them, each different: generated from the workspace's own words, plus a few odd ones. */
function questions(): string[] {
  const next = sequence(21);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const asked = new Set<string>([
    'reconciliation dashboard', 'smartwatch', 'what happened with the restic backups and the staging box in July',
    'who documented the Acme go-live checklist for the audit?', 'Thursday dentist Piranesi Clarke', 'port 8443 certificate renewal',
    'upgrading postgres again', 'deploy workflow runner red build', 'the', 'ledgerd statements cutoff timezone bug',
  ]);
  while (asked.size < 70) {
    const form = Math.floor(next() * 3);
    if (form === 0) asked.add(`what did ${pick(PEOPLE)} do with ${pick(THINGS)}`);
    else if (form === 1) asked.add(`who ${pick(VERBS)} ${pick(THINGS)}?`);
    else asked.add(`${pick(PEOPLE)} ${pick(VERBS)} ${pick(THINGS).replace(/^the /, '')}`);
  }
  return [...asked];
}

interface Answer {
  results: SearchResult[];
  recalled: unknown;
}

let ws: TempWorkspace;
let service: MemoryService;
let db: Database.Database;
beforeAll(async () => {
  ws = createTempWorkspace(englishWorkspace());
  service = openService(ws);
  await service.invoke('index.sync', {});
  db = openSqlite(service.indexPath, { readonly: true });
});
afterAll(async () => {
  db.close();
  await service.close();
  ws.cleanup();
});

async function currentAnswers(): Promise<Record<string, Answer>> {
  const backend = loadVectorExtension(db).backend;
  const provider = new HashEmbeddingProvider();
  const store = VectorStore.openExisting(db, provider.generation, backend);
  expect(store, 'the sync embedded the notes with the hash vectors').not.toBeNull();
  const keyword = new KeywordSearcher(db);
  const hybrid = new HybridSearcher(db, keyword, () => ({ store: store!, provider }), () => DEFAULT_HYBRID, () => GOLDEN_NOW);
  const recall = createAfterSearch(db, { workspaceRoot: ws.root });
  const sources = ['memory', 'sessions'] as const;
  const answers: Record<string, Answer> = {};
  for (const [i, query] of questions().entries()) {
    // Every fourth question packs its snippets into a budget, as agents' searches may.
    const results = await hybrid.search({ query, limit: i % 3 === 2 ? 10 : 5, sources, budget: i % 4 === 3 ? 600 : undefined });
    answers[query] = { results, recalled: recall(query, results) };
  }
  return answers;
}

describe('distinct questions get the same answers as before the speed work', () => {
  it('gives the same results (order, scores, breakdowns, lines, snippets) and recalls the same entries', async () => {
    const answers = await currentAnswers();
    if (process.env.REVERIE_RECORD_SEARCH_ANSWERS === '1') fs.writeFileSync(GOLDEN, `{\n${Object.entries(answers).map(([q, a]) => `${JSON.stringify(q)}: ${JSON.stringify(a)}`).join(',\n')}\n}\n`);
    const recorded = JSON.parse(fs.readFileSync(GOLDEN, 'utf8')) as Record<string, Answer>;
    expect(Object.keys(answers)).toEqual(Object.keys(recorded));
    // Not vacuous: nearly every question finds something, and recalls entries.
    expect(Object.values(recorded).filter((a) => a.results.length > 0).length).toBeGreaterThan(60);
    expect(Object.values(recorded).filter((a) => Object.keys(a.recalled as object).length > 0).length).toBeGreaterThan(50);
    for (const [query, answer] of Object.entries(answers)) expect(answer, `answer to "${query}"`).toEqual(recorded[query]);
  });
});
