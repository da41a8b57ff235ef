import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import type { GraphClaim, GraphFilters } from '../src/contract/index.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { Cooccurrence, STORED_PAIR_MIN_ENTRIES } from '../src/graph/cooccurrence.js';
import { migration0004 } from '../src/index/migrations/0004-graph.js';
import { MIGRATIONS } from '../src/index/migrations/index.js';
import { recordWrittenLines } from '../src/provenance/recordWrites.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace | undefined;
let service: MemoryService | undefined;
afterEach(async () => {
  await service?.close();
  ws?.cleanup();
  service = undefined;
  ws = undefined;
});

const db = (s: MemoryService) => (s as unknown as { db: Database.Database }).db;

async function indexed(files: Record<string, string>): Promise<MemoryService> {
  ws = createTempWorkspace(files);
  service = openService(ws);
  await service.invoke('index.sync', {});
  return service;
}

/** The mentioned_with edge between two labels (either direction), through neighbors of the first. */
async function pair(s: MemoryService, a: string, b: string, filters?: GraphFilters): Promise<GraphClaim | undefined> {
  const slice = await s.invoke('graph.neighbors', { entity: a, limit: 5000, ...(filters ? { filters } : {}) });
  const label = new Map(slice.entities.map((e) => [e.id, e.label]));
  return slice.edges.find((c) => c.predicate === 'mentioned_with' && new Set([label.get(c.subject), label.get(c.object!)]).size === 2 && [a, b].every((x) => [label.get(c.subject), label.get(c.object!)].includes(x)));
}

const where = (c: GraphClaim | undefined) => c?.evidence.map((e) => `${e.path}:${e.startLine}`);

/**
 * The stored pair counts equal a recount from the mentions of the pairs named together in at
 * least two entries (lone pairs are not stored), every stored pair has one claim dated by its
 * earliest entry, entity mention counts are exact, and nothing points at a missing row.
 */
function expectConsistent(d: Database.Database): void {
  const recount = d
    .prepare(
      `SELECT a, b, tool, origin, entries, undated, first FROM (
         SELECT x.entity_id AS a, y.entity_id AS b, g.tool, g.origin, count(*) AS entries, sum(g.observed IS NULL) AS undated, min(g.observed) AS first,
           sum(count(*)) OVER (PARTITION BY x.entity_id, y.entity_id) AS pair_entries
         FROM graph_mentions x JOIN graph_mentions y ON y.entry_id = x.entry_id AND y.cooccurs = 1 AND y.entity_id > x.entity_id JOIN graph_entries g ON g.id = x.entry_id
         WHERE x.cooccurs = 1 GROUP BY 1, 2, 3, 4
       ) WHERE pair_entries >= ${STORED_PAIR_MIN_ENTRIES} ORDER BY 1, 2, 3, 4`,
    )
    .raw()
    .all();
  expect(d.prepare('SELECT subject_id, object_id, tool, origin, entries, undated, first_observed FROM graph_cooccurrence ORDER BY 1, 2, 3, 4').raw().all()).toEqual(recount);
  expect(d.prepare("SELECT subject_id, object_id, valid_from FROM graph_claims WHERE predicate = 'mentioned_with' ORDER BY 1, 2").raw().all()).toEqual(
    d.prepare('SELECT subject_id, object_id, min(first_observed) FROM graph_cooccurrence GROUP BY 1, 2 ORDER BY 1, 2').raw().all(),
  );
  expect(d.prepare('SELECT id, mentions FROM graph_entities n WHERE mentions != (SELECT count(*) FROM graph_mentions m WHERE m.entity_id = n.id)').all()).toEqual([]);
  expect(d.prepare('SELECT count(*) FROM graph_entities n WHERE NOT EXISTS (SELECT 1 FROM graph_mentions m WHERE m.entity_id = n.id)').pluck().get()).toBe(0);
  expect(
    d.prepare("SELECT count(*) FROM graph_claims c WHERE c.predicate != 'mentioned_with' AND NOT EXISTS (SELECT 1 FROM graph_claim_evidence e WHERE e.claim_id = c.id)").pluck().get(),
  ).toBe(0);
  expect(d.prepare('SELECT count(*) FROM graph_state').pluck().get()).toBe(0);
}

/** Everything the graph says, by labels (ids differ between extractions). */
function snapshot(d: Database.Database): unknown {
  return {
    claims: d
      .prepare(
        `SELECT s.type || ':' || s.key AS s, c.predicate, o.type || ':' || o.key AS o, c.literal, c.confidence, c.valid_from, c.valid_until
         FROM graph_claims c JOIN graph_entities s ON s.id = c.subject_id LEFT JOIN graph_entities o ON o.id = c.object_id ORDER BY 1, 2, 3, 4`,
      )
      .all(),
    tallies: d
      .prepare(
        `SELECT s.type || ':' || s.key, o.type || ':' || o.key, t.tool, t.origin, t.entries, t.undated, t.first_observed
         FROM graph_cooccurrence t JOIN graph_entities s ON s.id = t.subject_id JOIN graph_entities o ON o.id = t.object_id ORDER BY 1, 2, 3, 4`,
      )
      .raw()
      .all(),
    mentions: d.prepare("SELECT n.type || ':' || n.key, n.mentions FROM graph_entities n ORDER BY 1").raw().all(),
  };
}

const DAYS: Record<string, string> = {
  'memory/2026-01-05.md': '# 2026-01-05\n\n- Lunch with Marek Nowak and Dana Silva at the harbour.\n- Dana Silva moved to Porto.\n- Reviewed the budget with Marek Nowak and Dana Silva.\n',
  'memory/2026-02-10.md': '# 2026-02-10\n\n- Call with Marek Nowak and Dana Silva about Porto.\n- Priya Rao joined the book club.\n',
  'memory/2026-03-20.md': '# 2026-03-20\n\n- Dana Silva met Marek Nowak again.\n- On the boat with Marek Nowak alone.\n',
};

describe('mentioned_with: weights and evidence', () => {
  it('weights a pair by the entries naming both, and keeps weight, evidence and validity right through edits, deletes and renames', async () => {
    const s = await indexed(DAYS);
    const d = db(s);
    let md = await pair(s, 'Marek Nowak', 'Dana Silva');
    expect(md).toMatchObject({ weight: 4, validFrom: '2026-01-05', validUntil: null, origin: 'owner', confidence: 0.5 });
    // Only entries naming both: not "On the boat with Marek Nowak alone", not "Dana Silva moved to Porto".
    expect(where(md)).toEqual(['memory/2026-01-05.md:3', 'memory/2026-01-05.md:5', 'memory/2026-02-10.md:3', 'memory/2026-03-20.md:3']);
    expect((await pair(s, 'Dana Silva', 'Porto'))!.weight).toBe(2);
    expect(await pair(s, 'Marek Nowak', 'Priya Rao')).toBeUndefined();
    expectConsistent(d);

    // Editing a file: one co-occurrence fewer, one more elsewhere in it.
    ws!.write('memory/2026-01-05.md', '# 2026-01-05\n\n- Lunch with Marek Nowak and Dana Silva at the harbour.\n- Dana Silva moved to Porto.\n- Reviewed the budget with Marek Nowak and Priya Rao.\n');
    await s.invoke('index.sync', {});
    md = await pair(s, 'Marek Nowak', 'Dana Silva');
    expect(md!.weight).toBe(3);
    expect(where(md)).toEqual(['memory/2026-01-05.md:3', 'memory/2026-02-10.md:3', 'memory/2026-03-20.md:3']);
    expect(where(await pair(s, 'Marek Nowak', 'Priya Rao'))).toEqual(['memory/2026-01-05.md:5']);
    expectConsistent(d);

    // Deleting the file with the earliest co-occurrence: the weight drops and validity starts later.
    ws!.remove('memory/2026-01-05.md');
    await s.invoke('index.sync', {});
    md = await pair(s, 'Marek Nowak', 'Dana Silva');
    expect(md).toMatchObject({ weight: 2, validFrom: '2026-02-10' });
    expect(await pair(s, 'Marek Nowak', 'Priya Rao')).toBeUndefined();
    // Dana and Porto are still named together, but nothing says she moved there any more.
    expect(await pair(s, 'Dana Silva', 'Porto')).toMatchObject({ weight: 1, validFrom: '2026-02-10' });
    const dana = await s.invoke('graph.neighbors', { entity: 'Dana Silva' });
    expect(dana.edges.filter((c) => c.predicate === 'moved_to')).toEqual([]);
    expectConsistent(d);

    // Renaming a file moves its evidence; the weight stays.
    ws!.write('memory/archive/2026-03-20.md', DAYS['memory/2026-03-20.md']!);
    ws!.remove('memory/2026-03-20.md');
    await s.invoke('index.sync', {});
    md = await pair(s, 'Marek Nowak', 'Dana Silva');
    expect(md!.weight).toBe(2);
    expect(where(md)).toEqual(['memory/2026-02-10.md:3', 'memory/archive/2026-03-20.md:3']);
    expectConsistent(d);

    // Nothing left naming both: the edge is gone.
    ws!.remove('memory/2026-02-10.md');
    ws!.write('memory/archive/2026-03-20.md', '# 2026-03-20\n\n- Dana Silva went sailing.\n- On the boat with Marek Nowak alone.\n');
    await s.invoke('index.sync', {});
    expect(await pair(s, 'Marek Nowak', 'Dana Silva')).toBeUndefined();
    expect(d.prepare("SELECT count(*) FROM graph_claims WHERE predicate = 'mentioned_with'").pluck().get()).toBe(0);
    expectConsistent(d);
  });

  it('dates a pair by its earliest remaining entry when the earliest one is deleted', async () => {
    const s = await indexed({
      'memory/2026-01-05.md': '# 2026-01-05\n\n- Lunch with Marek Nowak and Dana Silva.\n',
      'memory/2026-01-05-retro.md': '# Retro\n\n- Went through it with Marek Nowak and Dana Silva.\n',
      'memory/2026-01-09.md': '# 2026-01-09\n\n- Call with Marek Nowak and Dana Silva.\n- Coffee with Dana Silva and Marek Nowak.\n',
    });
    ws!.remove('memory/2026-01-05.md');
    await s.invoke('index.sync', {});
    expect(await pair(s, 'Marek Nowak', 'Dana Silva')).toMatchObject({ weight: 3, validFrom: '2026-01-05' });
    ws!.remove('memory/2026-01-05-retro.md');
    await s.invoke('index.sync', {});
    expect(await pair(s, 'Marek Nowak', 'Dana Silva')).toMatchObject({ weight: 2, validFrom: '2026-01-09' });
    expectConsistent(db(s));
  });

  it('explains a mentioned_with claim with the lines of the entries naming both entities', async () => {
    const s = await indexed(DAYS);
    const md = (await pair(s, 'Marek Nowak', 'Dana Silva'))!;
    const explained = await s.invoke('graph.explain', { claimId: md.id });
    expect(explained).toMatchObject({ predicate: 'mentioned_with', weight: 4 });
    expect([explained.subjectLabel, explained.objectLabel].sort()).toEqual(['Dana Silva', 'Marek Nowak']);
    expect(explained.lines).toEqual([
      { path: 'memory/2026-01-05.md', line: 3, text: '- Lunch with Marek Nowak and Dana Silva at the harbour.' },
      { path: 'memory/2026-01-05.md', line: 5, text: '- Reviewed the budget with Marek Nowak and Dana Silva.' },
      { path: 'memory/2026-02-10.md', line: 3, text: '- Call with Marek Nowak and Dana Silva about Porto.' },
      { path: 'memory/2026-03-20.md', line: 3, text: '- Dana Silva met Marek Nowak again.' },
    ]);
    expect(explained.evidence[0]).toMatchObject({ path: 'memory/2026-01-05.md', startLine: 3, endLine: 3, chunkId: expect.stringMatching(/^chunk:\d+$/), dreamRun: null, origin: 'owner' });
  });

  it('draws pairs among the first 20 names of an entry only, and its evidence follows that rule', async () => {
    const names = Array.from({ length: 25 }, (_, i) => `[[Node ${i + 1}]]`).join(' ');
    const s = await indexed({ 'memory/2026-01-05.md': `# 2026-01-05\n\n- ${names}\n- Only [[Node 1]] and [[Node 25]] here.\n` });
    expect(where(await pair(s, 'Node 1', 'Node 2'))).toEqual(['memory/2026-01-05.md:3']);
    // Node 25 is in the first entry too, past the 20th name: that entry is not the pair's evidence.
    expect(await pair(s, 'Node 1', 'Node 25')).toMatchObject({ weight: 1 });
    expect(where(await pair(s, 'Node 1', 'Node 25'))).toEqual(['memory/2026-01-05.md:4']);
    expect(await pair(s, 'Node 2', 'Node 25')).toBeUndefined();
    expect(await s.invoke('graph.overview', { limit: 100 })).toMatchObject({ totals: { claims: (20 * 19) / 2 + 1 } });
    expectConsistent(db(s));
  });

  it('counts an entry once for a pair when an alias merges two of its names', async () => {
    const s = await indexed({
      'memory/2026-04-07.md': '# 2026-04-07\n\n- Dinner with Bobby and Dana Silva at the harbour.\n- Bobby met Robert Smith and Dana Silva about Grafana.\n',
      'memory/people/robert.md': '---\naliases: [Bobby]\n---\n# Robert Smith\n\n- Robert Smith said the boat is fixed.\n',
    });
    const robert = await pair(s, 'Robert Smith', 'Dana Silva');
    expect(robert).toMatchObject({ weight: 2 });
    expect(where(robert)).toEqual(['memory/2026-04-07.md:3', 'memory/2026-04-07.md:4']);
    expectConsistent(db(s));
  });
});

describe('mentioned_with: filters', () => {
  it('applies source tool, origin class and validAt to the entries behind a pair', async () => {
    ws = createTempWorkspace({
      ...DAYS,
      'memory/imports/codex/notes/2026-02-01.md': '- Paired with Marek Nowak and Dana Silva on the release.\n- Approved the payout with Dana Silva and Marek Nowak.\n',
    });
    service = openService(ws);
    const s = service;
    recordWrittenLines(db(s), 'memory/imports/codex/notes/2026-02-01.md', ['- Approved the payout with Dana Silva and Marek Nowak.'], { origin: 'untrusted', via: 'import', actor: 'codex' });
    await s.invoke('index.sync', {});

    expect(await pair(s, 'Marek Nowak', 'Dana Silva')).toMatchObject({ weight: 6, origin: 'untrusted', validFrom: '2026-01-05' });
    const codex = await pair(s, 'Marek Nowak', 'Dana Silva', { tools: ['codex'] });
    expect(codex).toMatchObject({ weight: 2, origin: 'untrusted' });
    expect(where(codex)).toEqual(['memory/imports/codex/notes/2026-02-01.md:1', 'memory/imports/codex/notes/2026-02-01.md:2']);
    expect(await pair(s, 'Marek Nowak', 'Dana Silva', { tools: ['workspace'] })).toMatchObject({ weight: 4, origin: 'owner' });
    expect(await pair(s, 'Marek Nowak', 'Dana Silva', { origins: ['owner'] })).toMatchObject({ weight: 5, origin: 'owner' });
    expect(where(await pair(s, 'Marek Nowak', 'Dana Silva', { origins: ['untrusted'] }))).toEqual(['memory/imports/codex/notes/2026-02-01.md:2']);
    expect(await pair(s, 'Marek Nowak', 'Dana Silva', { tools: ['workspace'], origins: ['untrusted'] })).toBeUndefined();

    // validAt: entries observed by then; a pair first named together later is not there yet.
    const january = await pair(s, 'Marek Nowak', 'Dana Silva', { validAt: '2026-01-31' });
    expect(january).toMatchObject({ weight: 2 });
    expect(where(january)).toEqual(['memory/2026-01-05.md:3', 'memory/2026-01-05.md:5']);
    expect(await pair(s, 'Marek Nowak', 'Porto', { validAt: '2026-01-31' })).toBeUndefined();
    expect(await pair(s, 'Marek Nowak', 'Porto', { validAt: '2026-02-10' })).toMatchObject({ weight: 1 });
    expect(await pair(s, 'Marek Nowak', 'Dana Silva', { validAt: '2026-02-05', tools: ['codex'] })).toMatchObject({ weight: 2 });
    expect(await pair(s, 'Marek Nowak', 'Dana Silva', { validAt: '2026-01-31', tools: ['codex'] })).toBeUndefined();

    // The same filters decide which edges the overview draws and counts.
    const claimsOf = async (filters: GraphFilters) => (await s.invoke('graph.overview', { limit: 100, filters })).edges;
    const pairs = (edges: GraphClaim[]) => edges.filter((c) => c.predicate === 'mentioned_with').length;
    const all = pairs((await s.invoke('graph.overview', { limit: 100 })).edges);
    expect(pairs(await claimsOf({ tools: ['codex'] }))).toBe(1);
    expect(pairs(await claimsOf({ origins: ['untrusted'] }))).toBe(1);
    expect(pairs(await claimsOf({ validAt: '2026-01-31' }))).toBe(2); // Marek–Dana and Dana–Porto, on 01-05
    expect(all).toBe(4); // and Marek–Porto (02-10), Priya Rao–book club (she joined it)
    expect((await s.invoke('graph.overview', { limit: 100, filters: { tools: ['codex'] } })).totals.claims).toBe(1);
  });
});

const PEOPLE = ['Marek Nowak', 'Dana Silva', 'Priya Rao', 'Jonas Berg', 'Aiko Tanaka', 'Kofi Okafor', 'Lena Costa', 'Danny'];
const PLACES = ['Lisbon', 'Porto', 'Oslo', 'Kyoto'];

/** Deterministic notes with few names, so pairs recur across many entries and files. */
function notes(seed: number, count: number, from = 0): Record<string, string> {
  let x = seed;
  const rand = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const files: Record<string, string> = {};
  for (let f = from; f < from + count; f++) {
    const date = new Date(Date.UTC(2025, 0, 1) + f * 86_400_000).toISOString().slice(0, 10);
    const lines = [`# ${date}`, ''];
    for (let k = 0; k < 6; k++) {
      const names = [...new Set([pick(PEOPLE), pick(PEOPLE), pick(PEOPLE)])];
      const said = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
      const kind = rand();
      // Lowercase openings: a capitalised first word is a name or not depending on what the graph knew before.
      if (kind < 0.5) lines.push(`- lunch with ${said} in ${pick(PLACES)}.`);
      else if (kind < 0.7) lines.push(`- ${names[0]} moved to ${pick(PLACES)}.`);
      else if (kind < 0.85) lines.push(`- call with ${said}. <!-- observed: 2024-0${1 + Math.floor(rand() * 9)}-1${Math.floor(rand() * 9)} -->`);
      else lines.push(`- back from the trip with ${said}.`);
    }
    files[f % 5 === 4 ? `memory/imports/codex/notes/${date}.md` : `memory/${date}.md`] = lines.join('\n') + '\n';
  }
  return files;
}

describe('mentioned_with: incremental upkeep', () => {
  it('keeps pair counts equal to a recount through edits, deletes, renames, merges and a large rewrite', async () => {
    const s = await indexed(notes(7, 60));
    const d = db(s);
    expectConsistent(d);
    const untrusted = Object.keys(notes(7, 60)).find((p) => p.includes('codex'))!;
    recordWrittenLines(d, untrusted, [notes(7, 60)[untrusted]!.split('\n')[2]!], { origin: 'untrusted', via: 'import', actor: 'codex' });
    for (let round = 0; round < 4; round++) {
      const paths = Object.keys(notes(7, 60)).filter((p) => ws!.root && exists(ws!.root, p));
      const [edit1, edit2, gone, moved] = [paths[round * 3], paths[round * 5 + 1], paths[round * 7 + 2], paths[round * 11 + 3]];
      ws!.write(edit1!, Object.values(notes(100 + round, 1))[0]!);
      ws!.write(edit2!, Object.values(notes(200 + round, 1, round))[0]!);
      ws!.remove(gone!);
      ws!.write(moved!.replace('memory/', 'memory/archive/'), read(ws!.root, moved!));
      ws!.remove(moved!);
      if (round === 1) ws!.write('memory/people/dana.md', '---\naliases: [Danny]\n---\n# Dana Silva\n\n- Dana Silva lives in Lisbon.\n');
      const report = await s.invoke('index.sync', {});
      expect(report.notices).toEqual([]);
      expectConsistent(d);
    }
    // Danny was merged into Dana Silva: one entity, every entry naming either counted once.
    expect(await s.invoke('graph.search', { text: 'Danny' })).toMatchObject({ entities: [{ label: 'Dana Silva' }] });

    // Most files rewritten at once: pairs are recounted from the mentions instead.
    for (const [p, text] of Object.entries(notes(9, 55))) ws!.write(p, text);
    await s.invoke('index.sync', {});
    expectConsistent(d);
    const before = snapshot(d);
    await s.invoke('index.sync', { force: true });
    expectConsistent(d);
    expect(snapshot(d)).toEqual(before);
  });

  it('finishes a first extraction and its pair count that were stopped, on the next update', async () => {
    const s = await indexed(notes(3, 120));
    const d = db(s);
    const full = snapshot(d);
    d.exec('DELETE FROM graph_mentions; DELETE FROM graph_claim_evidence; DELETE FROM graph_entries; DELETE FROM graph_cooccurrence; DELETE FROM graph_aliases; DELETE FROM graph_claims; DELETE FROM graph_entities; DELETE FROM graph_files;');
    // Stopped at the first slice boundary after some entry was written (a call count would depend on how much the
    // first slice managed on a loaded machine: its first step may be bookkeeping alone). Files are recorded as done
    // with their mentions, which a first extraction writes in batches: the stopped update still records the files it finished.
    const entriesWritten = d.prepare('SELECT count(*) FROM graph_entries').pluck();
    await s.graph.update(false, () => (entriesWritten.get() as number) > 0);
    expect(d.prepare("SELECT value FROM graph_state WHERE key = 'cooccurrence'").pluck().get()).toBe('rebuild');
    expect(d.prepare('SELECT count(*) FROM graph_files').pluck().get()).toBeGreaterThan(0);
    expect(d.prepare('SELECT count(*) FROM graph_files').pluck().get()).toBeLessThan(120);
    await s.graph.update(false);
    expectConsistent(d);
    expect(snapshot(d)).toEqual(full);

    // A forced one stopped once every file was extracted again, before pairs were recounted.
    const started = Date.now();
    const extracted = d.prepare('SELECT count(*) FROM graph_files WHERE extracted_at >= ?').pluck();
    await s.graph.update(true, () => extracted.get(started) === 120);
    expect(d.prepare("SELECT value FROM graph_state WHERE key = 'cooccurrence'").pluck().get()).toBe('rebuild');
    await s.graph.update(false);
    expectConsistent(d);
    expect(snapshot(d)).toEqual(full);
  });

  it('answers between slices of a large extraction', async () => {
    // Enough work (~0.3 s here) that even a machine several times faster cuts it into many slices.
    const s = await indexed(notes(5, 600));
    let turns = 0;
    let longest = 0;
    let last = performance.now();
    const tick = () => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      turns++;
      if (running) setImmediate(tick);
    };
    let running = true;
    setImmediate(tick);
    const report = await s.graph.update(true);
    running = false;
    expect(report.extracted).toBe(600);
    // ~10 ms slices; generous bounds for a loaded machine.
    expect(turns).toBeGreaterThan(5);
    expect(longest).toBeLessThan(500);
    expectConsistent(db(s));
  });
});

describe('mentioned_with: queries during a recount', () => {
  it('answers filtered queries while pairs are recounted exactly as after the recount', async () => {
    const s = await indexed(notes(11, 40));
    const d = db(s);
    const codex = Object.keys(notes(11, 40)).find((p) => p.includes('codex'))!;
    recordWrittenLines(d, codex, [notes(11, 40)[codex]!.split('\n')[2]!], { origin: 'untrusted', via: 'import', actor: 'codex' });
    await s.invoke('index.sync', { force: true });
    const filters: GraphFilters[] = [{ tools: ['codex'] }, { origins: ['owner'] }, { validAt: '2025-01-20' }, { tools: ['workspace'], validAt: '2025-02-01' }, { origins: ['untrusted'] }];
    const answers = async () => {
      const out: unknown[] = [];
      for (const f of filters) {
        out.push(await s.invoke('graph.overview', { limit: 100, filters: f }));
        out.push(await s.invoke('graph.neighbors', { entity: 'Dana Silva', limit: 50, filters: f }).catch((e: Error) => e.message));
        out.push(await s.invoke('graph.search', { text: 'Marek', filters: f }));
      }
      return out;
    };
    const settled = await answers();
    expect(JSON.stringify(settled)).toContain('mentioned_with');

    // A recount starts: every tally dropped.
    const recount = new Cooccurrence(d);
    d.transaction(() => recount.startRebuild())();
    expect(d.prepare('SELECT count(*) FROM graph_cooccurrence').pluck().get()).toBe(0);
    expect(await answers()).toEqual(settled);
    // Half way: the pairs of the lower half of the subjects counted again (steps go by subject id).
    const steps = [...recount.rebuildSteps()];
    for (const step of steps.slice(0, -1)) d.transaction(step)();
    d.prepare('DELETE FROM graph_cooccurrence WHERE subject_id > (SELECT max(id) / 2 FROM graph_entities)').run();
    expect(Cooccurrence.rebuildPending(d)).toBe(true);
    expect(d.prepare('SELECT count(*) FROM graph_cooccurrence').pluck().get()).toBeGreaterThan(0);
    expect(await answers()).toEqual(settled);

    await s.graph.update(false);
    expect(Cooccurrence.rebuildPending(d)).toBe(false);
    expectConsistent(d);
    expect(await answers()).toEqual(settled);
  });
});

describe('graph schema migration', () => {
  it('replaces an index of the old schema (evidence row per pair) and extracts the graph again', async () => {
    ws = createTempWorkspace(DAYS);
    service = openService(ws);
    await service.invoke('index.sync', {});
    const file = service.indexPath;
    await service.close();
    // Put the index back to schema 4 with a graph in the old layout.
    const old = new Database(file);
    // (graph_model_files and vector_cells: migrations 0006 and 0007, which run again after this one.)
    old.exec('DROP TABLE IF EXISTS graph_model_files; DROP TABLE IF EXISTS vector_cells; DROP TABLE graph_cooccurrence; DROP TABLE graph_claim_evidence; DROP TABLE graph_mentions; DROP TABLE graph_entries; DROP TABLE graph_state; DROP TABLE graph_aliases; DROP TABLE graph_claims; DROP TABLE graph_entities; DROP TABLE graph_files;');
    migration0004.up(old);
    old.exec(`
      INSERT INTO graph_entities (id, type, label, key) VALUES (1, 'person', 'Stale Person', 'stale person'), (2, 'person', 'Other Person', 'other person');
      INSERT INTO graph_claims (id, key, subject_id, predicate, object_id, confidence) VALUES (1, '1|mentioned_with|e2', 1, 'mentioned_with', 2, 0.5);
      INSERT INTO graph_evidence (entity_id, claim_id, path, start_line, end_line, origin, tool) VALUES (1, NULL, 'memory/2026-01-05.md', 3, 3, 'owner', 'workspace'), (NULL, 1, 'memory/2026-01-05.md', 3, 3, 'owner', 'workspace');
      INSERT INTO graph_files (path, sha256, entries, extracted_at) SELECT path, sha256, 1, 0 FROM files;
    `);
    old.pragma('user_version = 4');
    old.close();

    service = openService(ws);
    const s = service;
    const d = db(s);
    expect(d.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    expect(d.prepare("SELECT name FROM sqlite_master WHERE name = 'graph_evidence'").get()).toBeUndefined();
    expect(d.prepare('SELECT count(*) FROM graph_files').pluck().get()).toBe(0);
    await s.invoke('index.sync', {});
    expect(await s.invoke('graph.search', { text: 'Stale Person' })).toEqual({ entities: [] });
    expect(await pair(s, 'Marek Nowak', 'Dana Silva')).toMatchObject({ weight: 4, validFrom: '2026-01-05' });
    expectConsistent(d);
  });
});

function exists(root: string, rel: string): boolean {
  return fs.existsSync(path.join(root, rel));
}

function read(root: string, rel: string): string {
  return fs.readFileSync(path.join(root, rel), 'utf8');
}
