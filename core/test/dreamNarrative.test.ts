import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DreamCandidate, DreamGate, DreamPromotion, DreamTheme } from '../src/contract/index.js';
import { narrateDream, type NarratedRun } from '../src/dreaming/diary/narrative.js';
import { planDiaryEdit } from '../src/dreaming/diaryUpdate.js';
import { conceptTags, contentTerms, readEntryTerms } from '../src/dreaming/conceptTags.js';
import { shortfalls } from '../src/dreaming/diary/gateFunnel.js';
import { quoteEntry } from '../src/dreaming/diary/quoteEntry.js';
import { dreamingWorkspaces, recallOver } from './helpers/dreaming.js';

const THRESHOLDS = { minScore: 0.65, minRecallCount: 3, minUniqueQueries: 3, maxPromotions: 10 };

interface CandidateSpec {
  text: string;
  score?: number;
  recalls?: number;
  queries?: number;
  days?: number;
  origin?: DreamCandidate['origin'];
  kind?: { passed: boolean; detail: string };
  imported?: boolean;
}

let serial = 0;

/** A candidate as the deep phase records it: every gate evaluated from its numbers, as the sweep does. */
function candidate(spec: CandidateSpec): DreamCandidate {
  const key = `memory/2026-10-${String(1 + (serial % 28)).padStart(2, '0')}.md:${3 + serial}:${3 + serial++}`;
  const score = spec.score ?? 0.8;
  const recalls = spec.recalls ?? 4;
  const queries = spec.queries ?? 4;
  const days = spec.days ?? 2;
  const origin = spec.origin ?? 'owner';
  const gates: DreamGate[] = [
    { gate: 'provenance', passed: origin === 'owner' || origin === 'agent', detail: `${origin} note` },
    { gate: 'imported', passed: true, detail: 'not imported' },
    { gate: 'kind', ...(spec.kind ?? { passed: true, detail: 'fact (no other kind matched)' }) },
    { gate: 'already-in-memory', passed: true, detail: 'new to curated memory' },
    { gate: 'length', passed: true, detail: '12 tokens (at most 160)' },
    { gate: 'score', passed: score >= THRESHOLDS.minScore, detail: `${score} (at least 0.65)` },
    { gate: 'recall-count', passed: recalls >= THRESHOLDS.minRecallCount, detail: `${recalls} recalls (at least 3)` },
    { gate: 'unique-queries', passed: Math.max(queries, days) >= THRESHOLDS.minUniqueQueries, detail: `${queries} distinct queries, ${days} days (at least 3)` },
  ];
  const passed = gates.every((g) => g.passed);
  return {
    key,
    path: key.split(':')[0]!,
    startLine: 3,
    endLine: 3,
    text: spec.text,
    heading: null,
    source: 'memory',
    origin,
    sessionKind: null,
    imported: spec.imported ?? false,
    signals: { recallCount: recalls, meanScore: 0.7, uniqueQueries: queries, uniqueDays: days, lastRecalledAt: null, writtenAt: null, conceptTags: [] },
    components: { relevance: 0, frequency: 0, diversity: 0, recency: 0, consolidation: 0, richness: 0, remBoost: 0 },
    score,
    gates,
    outcome: gates[0]!.passed ? (passed ? 'promoted' : 'below-gates') : 'ineligible',
    target: null,
  };
}

/** Ranked as the deep phase ranks them, with the per-night limit applied to those that passed. */
function rank(candidates: DreamCandidate[]): DreamCandidate[] {
  let admitted = 0;
  const ranked = [...candidates].sort((a, b) => b.score - a.score);
  for (const c of ranked) {
    const eligible = c.outcome === 'promoted';
    const fits = eligible && admitted < THRESHOLDS.maxPromotions;
    c.gates.push({ gate: 'max-promotions', passed: fits, detail: eligible ? (fits ? `#${admitted + 1}` : 'over the limit') : 'not reached: an earlier gate failed' });
    if (fits) admitted++;
    else if (eligible) c.outcome = 'below-gates';
  }
  return ranked;
}

function written(c: DreamCandidate, target: DreamPromotion['target'] = 'MEMORY.md', extra: Partial<DreamPromotion> = {}): DreamPromotion {
  return { candidateKey: c.key, target, action: 'added', lines: [`- ${c.text}`], priorEntries: [], decision: 'auto', decidedAt: null, ...extra };
}

function run(candidates: DreamCandidate[], promoted: DreamPromotion[], themes: DreamTheme[] = [], writes: NarratedRun['writes'] = []): NarratedRun {
  return {
    candidates,
    promoted,
    thresholds: THRESHOLDS,
    writes,
    phases: {
      light: { lookbackDays: 7, gathered: candidates.length, staged: candidates.length, duplicates: 0 },
      rem: { lookbackDays: 7, themes, reflections: [] },
      deep: { ranked: candidates.length, passed: 0, promoted: promoted.length, proposed: 0 },
    },
  };
}

describe('the diary tells the truth about a night', () => {
  // 44 entries: 4 from outside, 4 tasks, 6 below the score, 5 short of recalls, 5 short of searches, 20 passing (10 over the limit).
  const night = () => {
    const passing = Array.from({ length: 20 }, (_, i) => candidate({ text: `Durable fact number ${i + 1} about the Kestrel billing service.`, score: 0.9 - i * 0.005 }));
    const all = rank([
      ...Array.from({ length: 4 }, (_, i) => candidate({ text: `Text from a web page ${i}.`, origin: 'untrusted' })),
      ...Array.from({ length: 4 }, (_, i) => candidate({ text: `[ ] renew certificate ${i}`, kind: { passed: false, detail: 'a task (a checkbox): never promoted' } })),
      candidate({ text: 'The ramen place closes on Tuesdays.', score: 0.612 }),
      ...Array.from({ length: 5 }, (_, i) => candidate({ text: `Low score ${i}.`, score: 0.3 })),
      candidate({ text: 'The staging box is ares.internal, port 8443.', score: 0.95, recalls: 2 }),
      ...Array.from({ length: 4 }, (_, i) => candidate({ text: `Few recalls ${i}.`, recalls: 1, score: 0.7 })),
      ...Array.from({ length: 5 }, (_, i) => candidate({ text: `One search only ${i}.`, queries: 1, days: 1, score: 0.7 })),
      ...passing,
    ]);
    const promoted = all.filter((c) => c.outcome === 'promoted');
    return { all, promoted };
  };

  it('says how many entries passed each gate, in turn, and what the limit did', () => {
    const { all, promoted } = night();
    const text = narrateDream(run(all, promoted.map((c) => written(c))));
    expect(text).toContain(
      'I looked over 44 entries: 40 could be promoted, given where they came from, 36 were lasting (not a task, a question or a date already past), ' +
        '30 scored at least 0.65, 25 were recalled at least 3 times and 20 came up in at least 3 different searches or on as many days. ' +
        'In the end 20 passed every gate, and the limit of 10 a night let 10 of them through.',
    );
  });

  it('names every promotion, grouped by file with a count, and a USER.md supersession by both its lines', () => {
    const { all, promoted } = night();
    const vitest = candidate({ text: 'Prefer Vitest over Jest for new test suites.' });
    const promotions = [...promoted.map((c) => written(c)), written(vitest, 'USER.md', { action: 'superseded', priorEntries: ['Prefer Jest for tests.'] })];
    const text = narrateDream(run([...all, vitest], promotions));
    expect(text).toContain('Into MEMORY.md I wrote 10 entries: “Durable fact number 1 about the Kestrel billing service”, ');
    for (const c of promoted) expect(text).toContain(`“${c.text.replace(/\.$/, '')}”`);
    expect(text).toContain('In USER.md I replaced “Prefer Jest for tests” with “Prefer Vitest over Jest for new test suites”.');
    expect(text).not.toMatch(/plus \d+ more/);
  });

  it('says which gate held the closest candidates back, and by how much', () => {
    const { all, promoted } = night();
    const text = narrateDream(run(all, promoted.map((c) => written(c))));
    expect(text).toContain(
      'The closest I held back: “The staging box is ares.internal, port 8443” (2 of 3 recalls), ' +
        '“Durable fact number 11 about the Kestrel billing service” (over the limit of 10 a night) and ' +
        '“Durable fact number 12 about the Kestrel billing service” (over the limit of 10 a night).',
    );
    const ramen = narrateDream(run(all.filter((c) => c.score < THRESHOLDS.minScore), []));
    expect(ramen).toContain('“The ramen place closes on Tuesdays” (score 0.61 < 0.65)');
  });

  it('shows a score just under the gate with the decimals that tell them apart', () => {
    const close = rank([candidate({ text: 'Nearly there.', score: 0.648 })]);
    expect(narrateDream(run(close, []))).toContain('(score 0.648 < 0.65)');
  });

  it('names recurring concepts as the notes write them, never a date or a time word', () => {
    const { all, promoted } = night();
    const themes: DreamTheme[] = [
      { tag: 'kestrel', strength: 0.857, days: 6, candidateKeys: [], boosted: true },
      { tag: 'ares.internal', strength: 0.714, days: 5, candidateKeys: [], boosted: true },
    ];
    const text = narrateDream(run(all, promoted.map((c) => written(c)), themes));
    expect(text).toContain('Kestrel came up on 6 of the last 7 days and ares.internal came up on 5 of the last 7 days.');
  });

  it('a quiet night: one line, with the closest entry and what held it', () => {
    const quiet = rank([candidate({ text: 'The ramen place closes on Tuesdays.', score: 0.612 }), candidate({ text: 'Lunch with Marek.', score: 0.2 })]);
    expect(narrateDream(run(quiet, []))).toBe(
      'A quiet night: I looked over 2 entries, and none passed every gate, so memory stays as it was. The closest was “The ramen place closes on Tuesdays” (score 0.61 < 0.65).',
    );
    expect(narrateDream(run([], []))).toBe('A quiet night: there was nothing new to look over, so I left memory as it was.');
  });

  it('says why proposals wait when an agent or an import wrote them, and how many of them', () => {
    const mine = candidate({ text: 'Mine.' });
    const agents = candidate({ text: 'An agent note.', origin: 'agent' });
    const imported = candidate({ text: 'An import.', imported: true });
    const proposal = (c: DreamCandidate) => written(c, 'MEMORY.md', { decision: 'proposed' });
    const all = rank([mine, agents, imported]);
    expect(narrateDream(run(all, [proposal(agents)]))).toContain(
      'I left 1 entry for you to review: it was written by an agent or imported, not by you, and only you can make it part of your memory',
    );
    expect(narrateDream(run(all, [proposal(agents), proposal(imported)]))).toContain('they were written by an agent or imported, not by you, and only you can make them part of your memory');
    expect(narrateDream(run(all, [proposal(mine), proposal(agents), proposal(imported)]))).toContain(
      'I left 3 entries for you to review (2 of them written by an agent or imported, not by you)',
    );
    expect(narrateDream(run(all, [proposal(mine)]))).not.toContain('not by you');
  });

  it('says what could not be written, and is the same words for the same run', () => {
    const { all, promoted } = night();
    const aborted = [{ file: 'MEMORY.md' as const, outcome: 'aborted' as const, reason: 'MEMORY.md changed on disk during the run.', beforeSha256: null, afterSha256: null, added: [], changed: [], removed: [], preImageId: null }];
    const text = narrateDream(run(all, promoted.map((c) => written(c)), [], aborted));
    expect(text).toContain('I stopped before one write and left the file untouched: MEMORY.md changed on disk during the run.');
    expect(narrateDream(run(all, promoted.map((c) => written(c)), [], aborted))).toBe(text);
  });

  it('the Deep Sleep block counts the same gates; the history item lists every promotion', () => {
    const { all, promoted } = night();
    const edit = planDiaryEdit('', { id: 'dream:x', startedAt: '2026-10-30T03:00:00.000Z', narrative: 'n', candidates: all, promoted: promoted.map((c) => written(c)), thresholds: THRESHOLDS }, 'UTC');
    expect(edit.text).toContain('- Ranked 44 candidate(s); 20 passed every gate (minScore 0.65, minRecallCount 3, minUniqueQueries 3); the limit of 10 a night let 10 through.\n');
    expect(edit.text).toContain('- Passed, gate by gate: provenance 40, kind 36, already-in-memory 36, length 36, score 30, recall-count 25, unique-queries 20.\n');
    expect(edit.text).toContain('- Promoted 10 candidate(s) (10 into MEMORY.md).\n');
    for (const c of promoted) expect(edit.text).toContain(`  - + ${c.text}\n`);
  });
});

describe('concept tags: what themes are made of', () => {
  it('names, projects, hosts and identifiers; never a month, weekday, time zone or common word', () => {
    expect(conceptTags('[ ] renew the TLS certificate on ares.internal (expires Oct 30!)')).toEqual(['ares.internal', 'tls']);
    expect(conceptTags('The nightly job runs at 02:00 UTC on Monday for Kestrel Billing.')).toEqual(['kestrel billing']);
    expect(conceptTags('Priya is on holiday Nov 2–6 and Marco approves releases until Friday.')).toEqual(['marco']);
    expect(conceptTags('Deploys now go through ArgoCD and the GitHub Actions workflow deploy.yml #infra [[Kestrel]]')).toEqual([
      'kestrel',
      'infra',
      'deploy.yml',
      'argocd',
      'github actions',
    ]);
    expect(conceptTags('TODO: ask about the internal reconciliation database')).toEqual([]);
  });

  it("content terms, the score's richness, count what the gates were calibrated on: time words too, and the longest words", () => {
    // Themes drop "Wednesday"; richness keeps it, so the score of an entry is what it was before themes changed.
    expect(contentTerms('The reconciliation database on ares.internal, every Wednesday')).toEqual(['ares.internal', 'wednesday', 'reconciliation', 'database']);
    expect(contentTerms('TODO: renew the certificate on ares.internal (expires Oct 30!)')).toEqual(['ares.internal', 'oct', 'certificate', 'internal', 'expires']);
    expect(readEntryTerms('Kestrel Monday standup with [[Dana Lee]]')).toEqual({ concepts: ['dana lee'], contentTerms: ['dana lee', 'monday', 'kestrel', 'standup'] });
  });
});

describe('a real sweep', () => {
  const open = dreamingWorkspaces();

  it("names every promotion in the diary, and every held-back candidate's reason agrees with the gate that held it", async () => {
    const notes = {
      'memory/2026-11-27.md': '# 2026-11-27\n\n- Moved the production deploy target from fly.io to a Hetzner box named ledgerd-prod-2.\n- [ ] renew the TLS certificate on ares.internal\n',
      'memory/2026-11-28.md': '# 2026-11-28\n\n- The staging database is ledgerd-staging on port 5433.\n- The ramen place near the office closes on Tuesdays.\n',
    };
    const { ws, service, clock } = await open(notes, new Date(2026, 10, 29, 3, 0, 0).getTime());
    await recallOver(service, clock, [
      { query: 'where does production deploy now', daysAgo: 2 },
      { query: 'ledgerd-prod-2 hetzner box', daysAgo: 1 },
      { query: 'staging database port 5433', daysAgo: 1 },
      { query: 'renew TLS certificate ares.internal', daysAgo: 1 },
      { query: 'ramen place closes', daysAgo: 0 },
    ]);
    const run = await service.invoke('dream.run', { thresholds: { minScore: 0, minRecallCount: 2, minUniqueQueries: 1 } });
    const promoted = run.candidates.filter((c) => c.outcome === 'promoted');
    expect(promoted.length).toBeGreaterThan(0);
    const diary = fs.readFileSync(path.join(ws.root, 'DREAMS.md'), 'utf8');
    for (const c of promoted) expect(diary).toContain(quoteEntry(c.text));
    for (const c of run.candidates.filter((x) => x.outcome !== 'duplicate')) {
      const failed = c.gates.some((g) => !g.passed);
      expect(shortfalls(c, run.thresholds).length > 0, `${c.key}: ${JSON.stringify(c.gates)}`).toBe(failed);
    }
  });
});
