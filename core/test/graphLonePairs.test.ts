import { afterEach, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import type { GraphClaim, GraphEntity, GraphFilters } from '../src/contract/index.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { STORED_PAIR_MIN_ENTRIES } from '../src/graph/cooccurrence.js';
import { recordWrittenLines } from '../src/provenance/recordWrites.js';
import { indexDb } from './helpers/graphSnapshot.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace | undefined;
let service: MemoryService | undefined;
afterEach(async () => {
  await service?.close();
  ws?.cleanup();
  service = undefined;
  ws = undefined;
});

const PEOPLE = ['Marek Nowak', 'Dana Silva', 'Priya Rao', 'Jonas Berg', 'Aiko Tanaka', 'Kofi Okafor'];
const PLACES = ['Porto', 'Lisbon', 'Oslo'];

/** Daily notes where some pairs are named together once (lone) and others often, plus an imported note with an untrusted line. */
function notes(): Record<string, string> {
  const files: Record<string, string> = {};
  // Every pair of people once (lone pairs), Marek and Dana every day (a stored pair).
  const pairs = PEOPLE.flatMap((a, i) => PEOPLE.slice(i + 1).map((b) => [a, b] as const));
  for (let day = 1; day <= 12; day++) {
    const date = `2026-01-${String(day * 2).padStart(2, '0')}`;
    const [a, b] = pairs[day]!;
    const place = PLACES[day % PLACES.length]!;
    files[`memory/${date}.md`] = `# ${date}\n\n- Met ${a} and ${b} about the release.\n- Call with Marek Nowak and Dana Silva.\n- ${a} flew to ${place}.\n`;
  }
  // Stated relations whose two ends are also a lone pair (one entry): a degree counts them once.
  files['memory/2026-01-30.md'] = '# 2026-01-30\n\n- Kofi Okafor owns the payments-gateway repo.\n- Kestrel runs on Heroku.\n';
  files['memory/imports/codex/notes/2026-02-01.md'] = '- Paired with Marek Nowak and Aiko Tanaka on the payout.\n- Approved the payout with Kofi Okafor and Oslo ops.\n';
  return files;
}

const FILTERS: Array<GraphFilters | undefined> = [undefined, { tools: ['codex'] }, { origins: ['untrusted'] }, { validAt: '2026-01-12' }, { tools: ['workspace'], validAt: '2026-01-20' }];

/** Pairs named together in exactly one entry, recounted from the mentions. */
function lonePairCount(d: Database.Database): number {
  return d
    .prepare(
      `SELECT count(*) FROM (SELECT 1 FROM graph_mentions x JOIN graph_mentions y ON y.entry_id = x.entry_id AND y.cooccurs = 1 AND y.entity_id > x.entity_id
       WHERE x.cooccurs = 1 GROUP BY x.entity_id, y.entity_id HAVING count(*) < ${STORED_PAIR_MIN_ENTRIES})`,
    )
    .pluck()
    .get() as number;
}

/** The layout before lone pairs were left out: a claim and tallies for every pair (the recount without its threshold). */
function storeLonePairs(d: Database.Database): void {
  d.exec(`
    INSERT INTO graph_cooccurrence (subject_id, object_id, tool, origin, entries, undated, first_observed)
    SELECT x.entity_id, y.entity_id, g.tool, g.origin, count(*), sum(g.observed IS NULL), min(g.observed)
    FROM graph_mentions x JOIN graph_mentions y ON y.entry_id = x.entry_id AND y.cooccurs = 1 AND y.entity_id > x.entity_id JOIN graph_entries g ON g.id = x.entry_id
    WHERE x.cooccurs = 1 GROUP BY 1, 2, 3, 4 ON CONFLICT DO NOTHING;
    INSERT INTO graph_claims (subject_id, predicate, object_id, literal, confidence, valid_from)
    SELECT subject_id, 'mentioned_with', object_id, NULL, 0.5, min(first_observed) FROM graph_cooccurrence GROUP BY subject_id, object_id ON CONFLICT DO NOTHING;
  `);
}

/** Everything the graph queries answer, by labels (a lone pair's id differs from the stored claim's). */
async function answers(s: MemoryService): Promise<unknown> {
  const result: unknown[] = [];
  const labels = (entities: GraphEntity[]) => new Map(entities.map((e) => [e.id, `${e.type}:${e.label}`]));
  const edge = (c: GraphClaim, label: Map<string, string>) =>
    `${label.get(c.subject)} -${c.predicate}-> ${c.object ? label.get(c.object) : c.literal} w${c.weight} ${c.origin} ${c.validFrom}..${c.validUntil} ` +
    c.evidence.map((e) => `${e.path}:${e.startLine}${e.byModel ? '*' : ''}`).join(' ');
  const everyone = (await s.invoke('graph.overview', { limit: 1000 })).entities;
  const names = labels(everyone);
  for (const filters of FILTERS) {
    const overview = await s.invoke('graph.overview', { limit: 1000, mentionedWith: true, ...(filters ? { filters } : {}) });
    const overviewLabels = labels(overview.entities);
    const explained: string[] = [];
    for (const c of overview.edges.filter((e) => e.predicate === 'mentioned_with')) {
      const claim = await s.invoke('graph.explain', { claimId: c.id });
      explained.push(`${claim.subjectLabel} ~ ${claim.objectLabel} w${claim.weight} ${claim.validFrom}: ${claim.lines.map((l) => `${l.path}:${l.line} ${l.text}`).join(' | ')}`);
    }
    result.push({
      explained: explained.sort(),
      filters,
      overview: overview.edges.map((c) => edge(c, overviewLabels)).sort(),
      overviewDegrees: overview.entities.map((e) => `${overviewLabels.get(e.id)} ${e.degree}`).sort(),
      totals: [overview.totals, overview.omitted],
    });
    for (const entity of everyone) {
      const slice = await s.invoke('graph.neighbors', { entity: entity.id, hops: 2, limit: 5000, ...(filters ? { filters } : {}) });
      const label = labels(slice.entities);
      result.push({
        filters,
        center: names.get(entity.id),
        entities: slice.entities.map((e) => `${label.get(e.id)} ${e.degree}`).sort(),
        edges: slice.edges.map((c) => edge(c, label)).sort(),
        totals: [slice.totals, slice.omitted],
      });
    }
    // Ranked by degree within a tier: labels containing the text, and a question's answers.
    for (const text of ['an', 'ok', 'ar', 'who owns the payments-gateway repo']) {
      const found = await s.invoke('graph.search', { text, limit: 50, ...(filters ? { filters } : {}) });
      result.push({ filters, text, search: found.entities.map((e) => `${e.type}:${e.label} ${e.degree}`) });
    }
  }
  return result;
}

describe('lone pairs: co-mentions of one entry are read from the mentions, not stored', () => {
  it('answers neighbors, overview, degrees, search and explain exactly as the stored pairs they replace, under every filter', async () => {
    ws = createTempWorkspace(notes());
    service = openService(ws);
    recordWrittenLines(indexDb(service), 'memory/imports/codex/notes/2026-02-01.md', ['- Approved the payout with Kofi Okafor and Oslo ops.'], { origin: 'untrusted', via: 'import', actor: 'codex' });
    await service.invoke('index.sync', {});
    const d = indexDb(service);
    const lone = lonePairCount(d);
    const storedPairs = () => d.prepare("SELECT count(*) FROM graph_claims WHERE predicate = 'mentioned_with'").pluck().get() as number;
    expect(lone).toBeGreaterThan(5);
    const statedAndLone = d
      .prepare(
        `SELECT count(*) FROM graph_claims c WHERE c.predicate IN ('owns', 'runs_on') AND NOT EXISTS (SELECT 1 FROM graph_claims p WHERE p.predicate = 'mentioned_with' AND p.subject_id = min(c.subject_id, c.object_id) AND p.object_id = max(c.subject_id, c.object_id))`,
      )
      .pluck()
      .get() as number;
    expect(statedAndLone).toBe(2);
    const before = storedPairs();
    expect(before).toBeGreaterThan(3);
    expect(d.prepare('SELECT count(*) FROM (SELECT 1 FROM graph_cooccurrence GROUP BY subject_id, object_id HAVING sum(entries) < 2)').pluck().get()).toBe(0);

    const onDemand = await answers(service);
    expect(JSON.stringify(onDemand)).toContain('person:Kofi Okafor');
    storeLonePairs(d);
    expect(storedPairs()).toBe(before + lone);
    expect(await answers(service)).toEqual(onDemand);
  });

  it('a lone pair is stored when a second entry names it, and unstored again when that entry goes', async () => {
    ws = createTempWorkspace({ 'memory/2026-03-01.md': '# 2026-03-01\n\n- Lunch with Jonas Berg and Aiko Tanaka.\n' });
    service = openService(ws);
    const s = service;
    await s.invoke('index.sync', {});
    const d = indexDb(s);
    const pairOf = async () => (await s.invoke('graph.neighbors', { entity: 'Jonas Berg' })).edges.find((c) => c.predicate === 'mentioned_with');
    const storedPairs = () => d.prepare("SELECT count(*) FROM graph_claims WHERE predicate = 'mentioned_with'").pluck().get();
    const lone = await pairOf();
    expect(lone).toMatchObject({ weight: 1, validFrom: '2026-03-01' });
    expect(lone!.id).toMatch(/^claim:\d+-\d+$/);
    expect(storedPairs()).toBe(0);

    ws.write('memory/2026-03-04.md', '# 2026-03-04\n\n- Jonas Berg and Aiko Tanaka shipped the fix.\n');
    await s.invoke('index.sync', {});
    const stored = await pairOf();
    expect(stored).toMatchObject({ weight: 2, validFrom: '2026-03-01' });
    expect(stored!.id).toMatch(/^claim:\d+$/);
    expect(storedPairs()).toBe(1);

    ws.remove('memory/2026-03-01.md');
    await s.invoke('index.sync', {});
    expect(await pairOf()).toMatchObject({ weight: 1, validFrom: '2026-03-04', evidence: [{ path: 'memory/2026-03-04.md', startLine: 3 }] });
    expect(storedPairs()).toBe(0);
    expect(d.prepare('SELECT count(*) FROM graph_cooccurrence').pluck().get()).toBe(0);
  });

  it('explains a lone pair by its id and says clearly when a pair id names nothing', async () => {
    ws = createTempWorkspace({ 'memory/2026-03-01.md': '# 2026-03-01\n\n- Lunch with Jonas Berg and Aiko Tanaka.\n' });
    service = openService(ws);
    await service.invoke('index.sync', {});
    const pair = (await service.invoke('graph.neighbors', { entity: 'Jonas Berg' })).edges.find((c) => c.predicate === 'mentioned_with')!;
    const explained = await service.invoke('graph.explain', { claimId: pair.id });
    expect(explained.lines).toEqual([{ path: 'memory/2026-03-01.md', line: 3, text: '- Lunch with Jonas Berg and Aiko Tanaka.' }]);
    await expect(service.invoke('graph.explain', { claimId: 'claim:999-1000' })).rejects.toThrow(/There is no claim "claim:999-1000"/);
  });
});
