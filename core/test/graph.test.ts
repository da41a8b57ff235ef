import { afterEach, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import type { GraphClaim, GraphEntity, GraphSlice, OperationOutput } from '../src/contract/index.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { recordWrittenLines } from '../src/provenance/recordWrites.js';
import { labelKey } from '../src/graph/labelKey.js';
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

const NOTES: Record<string, string> = {
  'MEMORY.md': [
    '# Long-Term Memory',
    '',
    '## Infrastructure',
    '- The NAS is called atlas and runs restic backups to a Hetzner storage box.',
    '- ledgerd runs on ledgerd-prod-2 since the move away from fly.io. #infra',
    '- Runbooks live at [the wiki](https://wiki.example.com/ops) and in `ops/runbooks/restore.md`.',
    '',
    '## People',
    '- Marek Nowak owns the tax module.',
    '- Met Zoë Müller at the Rust meetup.',
    '',
  ].join('\n'),
  'USER.md': '# User\n\n- Timezone: Europe/Berlin\n',
  'memory/2026-03-01.md': '# 2026-03-01\n\n- Dana moved to Porto last week.\n- Call with Zoe Muller about the Rust meetup.\n',
  'memory/2026-04-06.md': '# 2026-04-06\n\n- Lunch with Dana; she moved to Lisbon in March.\n- Talked to Priya about [[Project Atlas|the atlas box]] and #backups.\n',
  'memory/projects/atlas.md': '---\ntitle: Project Atlas\naliases: [Atlas NAS]\ntags: [homelab]\nstatus: active\n---\n# Project Atlas\n\n- Owner: Marek Nowak\n- Atlas uses restic for nightly backups.\n',
};

async function indexed(files: Record<string, string>): Promise<MemoryService> {
  ws = createTempWorkspace(files);
  service = openService(ws);
  await service.invoke('index.sync', {});
  return service;
}

async function search(s: MemoryService, text: string, filters?: object): Promise<GraphEntity[]> {
  return (await s.invoke('graph.search', { text, ...(filters ? { filters } : {}) })).entities;
}

async function entity(s: MemoryService, label: string): Promise<GraphEntity> {
  const found = (await search(s, label)).find((e) => labelKey(e.label) === labelKey(label) || e.aliases.some((a) => labelKey(a) === labelKey(label)));
  expect(found, `entity ${label}`).toBeDefined();
  return found!;
}

/** Claims of an entity (as subject), through neighbors. */
async function claimsOf(s: MemoryService, label: string, filters?: object): Promise<{ slice: OperationOutput<'graph.neighbors'>; labels: Map<string, string> }> {
  const slice = await s.invoke('graph.neighbors', { entity: label, ...(filters ? { filters } : {}) });
  return { slice, labels: new Map(slice.entities.map((e) => [e.id, e.label])) };
}

function relation(slice: GraphSlice, labels: Map<string, string>, subject: string, predicate: string, object: string): GraphClaim | undefined {
  return slice.edges.find((c) => labels.get(c.subject) === subject && c.predicate === predicate && c.object !== null && labels.get(c.object) === object);
}

describe('knowledge graph extraction', () => {
  it('finds names, relations, pronouns, tags, links, Key: value and front matter, each with evidence lines', async () => {
    const s = await indexed(NOTES);
    const marek = await entity(s, 'Marek Nowak');
    expect(marek.type).toBe('person');
    expect(marek.evidence).toContainEqual(expect.objectContaining({ path: 'MEMORY.md', startLine: 9, endLine: 9, origin: 'owner' }));
    expect(marek.evidence[0]!.chunkId).toMatch(/^chunk:\d+$/);
    expect(marek.sources).toEqual(['workspace']);

    const m = await claimsOf(s, 'Marek Nowak');
    expect(relation(m.slice, m.labels, 'Marek Nowak', 'owns', 'tax module')).toBeDefined();

    // "she" is the last person named on the line: Dana.
    const d = await claimsOf(s, 'Dana');
    expect(d.slice.center.type).toBe('person');
    const lisbon = relation(d.slice, d.labels, 'Dana', 'moved_to', 'Lisbon');
    const porto = relation(d.slice, d.labels, 'Dana', 'moved_to', 'Porto');
    expect(lisbon).toMatchObject({ validFrom: '2026-04-06', validUntil: null });
    expect(lisbon!.evidence[0]).toMatchObject({ path: 'memory/2026-04-06.md', startLine: 3, endLine: 3 });
    // Supersession: the newer move ends the older one's validity.
    expect(porto).toMatchObject({ validFrom: '2026-03-01', validUntil: '2026-04-06' });
    expect(d.labels.get(porto!.object!)).toBe('Porto');
    expect((await entity(s, 'Lisbon')).type).toBe('place');

    // validAt: in mid-March Dana lived in Porto, not yet Lisbon.
    const march = await claimsOf(s, 'Dana', { validAt: '2026-03-15' });
    expect(relation(march.slice, march.labels, 'Dana', 'moved_to', 'Porto')).toBeDefined();
    expect(relation(march.slice, march.labels, 'Dana', 'moved_to', 'Lisbon')).toBeUndefined();

    expect((await entity(s, 'infra')).type).toBe('tag');
    expect((await entity(s, 'homelab')).type).toBe('tag');
    expect((await entity(s, 'https://wiki.example.com/ops')).type).toBe('url');
    expect((await entity(s, 'ops/runbooks/restore.md')).type).toBe('path');
    expect((await entity(s, 'ledgerd-prod-2')).type).toBe('machine');
    expect((await entity(s, 'fly.io')).type).toBe('machine');
    const l = await claimsOf(s, 'ledgerd');
    expect(relation(l.slice, l.labels, 'ledgerd', 'runs_on', 'ledgerd-prod-2')).toBeDefined();

    // Front matter: title, aliases, tags and other fields; a wiki-link's shown text is an alias.
    const atlas = await entity(s, 'Project Atlas');
    expect(atlas.type).toBe('project');
    expect(atlas.aliases).toEqual(expect.arrayContaining(['Atlas NAS', 'the atlas box']));
    expect((await entity(s, 'Atlas NAS')).id).toBe(atlas.id);
    const a = await claimsOf(s, atlas.id);
    const literals = await literalClaims(s, atlas.id);
    expect(literals).toEqual(expect.arrayContaining([expect.objectContaining({ predicate: 'status', literal: 'active' }), expect.objectContaining({ predicate: 'owner', literal: 'Marek Nowak' })]));
    expect(relation(a.slice, a.labels, 'Priya', 'mentioned_with', 'Project Atlas') ?? relation(a.slice, a.labels, 'Project Atlas', 'mentioned_with', 'Priya')).toBeDefined();

    const user = await literalClaims(s, (await entity(s, 'User')).id);
    expect(user).toContainEqual(expect.objectContaining({ predicate: 'timezone', literal: 'Europe/Berlin' }));

    // Sentence-initial words alone are not names; dates are not names.
    expect(await search(s, 'Lunch')).toEqual([]);
    expect(await search(s, 'March')).toEqual([]);
  });

  it('merges labels that differ in case, spacing or diacritics, and entities an alias joins, keeping all evidence', async () => {
    const s = await indexed({
      ...NOTES,
      'memory/2026-04-07.md': '# 2026-04-07\n\n- Dinner with Bobby at the harbour.\n- Coffee with ZOË   MÜLLER.\n',
      'memory/people/robert.md': '---\naliases: [Bobby, Rob]\n---\n# Robert Smith\n\n- Robert Smith said the boat is fixed.\n',
    });
    const zoe = (await search(s, 'zoe muller')).filter((e) => e.type === 'person');
    expect(zoe).toHaveLength(1);
    expect(new Set(zoe[0]!.evidence.map((e) => e.path))).toEqual(new Set(['MEMORY.md', 'memory/2026-03-01.md', 'memory/2026-04-07.md']));
    expect(zoe[0]!.label).toBe('Zoë Müller');

    const robert = await entity(s, 'Robert Smith');
    expect((await entity(s, 'Bobby')).id).toBe(robert.id);
    const merged = await s.invoke('graph.neighbors', { entity: 'Bobby' });
    expect(merged.center.id).toBe(robert.id);
    expect(merged.center.aliases).toEqual(expect.arrayContaining(['Bobby', 'Rob']));
    expect(merged.center.evidence.map((e) => e.path)).toEqual(expect.arrayContaining(['memory/2026-04-07.md', 'memory/people/robert.md']));
    expect((await search(s, 'Bobby')).filter((e) => e.type === 'person')).toHaveLength(1);
  });

  it('marks what untrusted lines say, and filters by source tool and origin class', async () => {
    ws = createTempWorkspace({ ...NOTES, 'memory/imports/codex/notes/agent.md': '# Codex notes\n\n- Eve Mallory owns the prod database.\n- Marek Nowak reviewed the tax module.\n' });
    service = openService(ws);
    const s = service;
    recordWrittenLines(db(s), 'memory/imports/codex/notes/agent.md', ['- Eve Mallory owns the prod database.'], { origin: 'untrusted', via: 'import', actor: 'codex' });
    await s.invoke('index.sync', {});
    const eve = await entity(s, 'Eve Mallory');
    expect(eve).toMatchObject({ origin: 'untrusted', sources: ['codex'] });
    const e = await claimsOf(s, 'Eve Mallory');
    expect(relation(e.slice, e.labels, 'Eve Mallory', 'owns', 'prod database')).toMatchObject({ origin: 'untrusted' });

    expect(await search(s, 'Eve Mallory', { origins: ['owner'] })).toEqual([]);
    const marek = await search(s, 'Marek Nowak', { tools: ['codex'] });
    expect(marek).toHaveLength(1);
    expect(marek[0]!.evidence.every((ev) => ev.path.startsWith('memory/imports/codex/'))).toBe(true);
    expect((await entity(s, 'Marek Nowak')).sources).toEqual(['codex', 'workspace']);
    const owned = await s.invoke('graph.overview', { limit: 500, filters: { tools: ['workspace'] } });
    expect(owned.entities.some((x) => x.label === 'Eve Mallory')).toBe(false);
  });

  it('names the dream run behind promoted lines, and never fails a sync over a graph problem', async () => {
    ws = createTempWorkspace({ 'MEMORY.md': '# Memory\n\n- Farah Khan runs on oat milk.\n' });
    service = openService(ws);
    const s = service;
    recordWrittenLines(db(s), 'MEMORY.md', ['- Farah Khan runs on oat milk.'], { origin: 'owner', via: 'dreaming', actor: 'dream-2026-04-06-0300' });
    await s.invoke('index.sync', {});
    expect((await entity(s, 'Farah Khan')).evidence[0]).toMatchObject({ dreamRun: 'dream-2026-04-06-0300', origin: 'owner' });

    db(s).exec('DROP TABLE graph_files');
    ws.write('MEMORY.md', '# Memory\n\n- Farah Khan moved to Oslo.\n');
    const report = await s.invoke('index.sync', {});
    expect(report.notices.some((n) => n.startsWith('The knowledge graph could not be updated'))).toBe(true);
  });

  it('never extracts transcripts or the dreaming diary', async () => {
    const s = await indexed({ 'DREAMS.md': '# Dreams\n\n- Quentin Blake moved to Oslo.\n', 'MEMORY.md': '# Memory\n\n- Keep the gateway on loopback.\n' });
    expect(await search(s, 'Quentin Blake')).toEqual([]);
  });
});

describe('knowledge graph neighbours past the budget', () => {
  it('keeps the entities most bound to the centre (stated relations, then shared entries), not the most mentioned overall', async () => {
    const popular = Array.from({ length: 12 }, (_, i) => `- at the fair on day ${i + 1}: [[Pop One]], [[Pop Two]] and [[Pop Three]].`).join('\n');
    const quiet = Array.from({ length: 5 }, (_, i) => `- reviewed [[Hub Project]] with [[Quiet Friend]] (round ${i + 1}).`).join('\n');
    const s = await indexed({
      'memory/popular.md': `# 2026-01-01\n\n${popular}\n`,
      'memory/hub.md': `# 2026-01-02\n\n- [[Hub Project]] met [[Pop One]], [[Pop Two]] and [[Pop Three]] once.\n${quiet}\n- [[Hub Project]] runs on [[Tiny Box]].\n`,
    });
    const labels = async (limit: number) =>
      (await s.invoke('graph.neighbors', { entity: 'Hub Project', limit })).entities.map((e) => e.label).sort();
    // The stated relation first, then five shared entries beat one; the popular names come last.
    expect(await labels(2)).toEqual(['Hub Project', 'Tiny Box']);
    expect(await labels(3)).toEqual(['Hub Project', 'Quiet Friend', 'Tiny Box']);
    expect(await labels(10)).toEqual(['Hub Project', 'Pop One', 'Pop Three', 'Pop Two', 'Quiet Friend', 'Tiny Box']);
  });
});

/** The entity's facts as graph.neighbors gives them, checked against the index: every literal claim, each with evidence. */
async function literalClaims(s: MemoryService, id: string): Promise<GraphClaim[]> {
  const { facts } = await s.invoke('graph.neighbors', { entity: id });
  const stored = db(s).prepare('SELECT id FROM graph_claims WHERE subject_id = ? AND literal IS NOT NULL').pluck().all(Number(id.split(':')[1])) as number[];
  expect(facts.map((f) => f.id).sort()).toEqual(stored.map((n) => `claim:${n}`).sort());
  for (const f of facts) expect(f.evidence.length).toBeGreaterThan(0);
  return facts;
}

describe('knowledge graph bad input', () => {
  it('keeps an entry with 10,000 links cheap, drops self-loops, and survives cycles', async () => {
    const links = Array.from({ length: 10_000 }, (_, i) => `[[Node ${i}]]`).join(' ');
    const s = await indexed({
      'MEMORY.md': `# Memory\n\n- ${links}\n- Alpha Service uses Beta Service.\n- Beta Service uses Alpha Service.\n- Gamma Service uses Gamma Service.\n`,
    });
    const overview = await s.invoke('graph.overview', { limit: 20_000 });
    expect(overview.totals.entities).toBeLessThan(200);
    expect(overview.edges.every((c) => c.subject !== c.object)).toBe(true);
    const alpha = await claimsOf(s, 'Alpha Service');
    expect(relation(alpha.slice, alpha.labels, 'Alpha Service', 'uses', 'Beta Service')).toBeDefined();
    expect(relation(alpha.slice, alpha.labels, 'Beta Service', 'uses', 'Alpha Service')).toBeDefined();
    const gamma = await claimsOf(s, 'Gamma Service');
    expect(gamma.slice.edges.filter((c) => c.predicate !== 'mentioned_with')).toEqual([]);
    expect(gamma.slice.center.type).toBe('tool');
  });

  it('keeps labels in many scripts, emoji and right-to-left text intact', async () => {
    const labels = ['東京タワー', 'Москва', 'שלום עולם', 'مرحبا', 'नमस्ते दुनिया', '🎉 Party Planning', 'Ελληνικά'];
    const s = await indexed({ 'MEMORY.md': `# Memory\n\n${labels.map((l) => `- Note about [[${l}]] and #日本語.\n`).join('')}` });
    for (const label of labels) expect((await search(s, label)).map((e) => e.label)).toContain(label);
    expect((await entity(s, '日本語')).type).toBe('tag');
    // Devanagari vowel signs are letters, not accents: a different word stays different.
    expect(labelKey('नमस्ते')).not.toBe(labelKey('नमस्त'));
    expect(labelKey('Zoë  Müller')).toBe('zoe muller');
  });

  it('gives an empty workspace an empty graph', async () => {
    const s = await indexed({});
    expect(await s.invoke('graph.overview', {})).toEqual({ entities: [], edges: [], omitted: { entities: 0, edges: 0 }, totals: { entities: 0, claims: 0 }, evidence: 'omitted' });
    expect(await search(s, 'anything')).toEqual([]);
    await expect(s.invoke('graph.neighbors', { entity: 'nobody' })).rejects.toMatchObject({ code: 'not-found' });
    await expect(s.invoke('graph.explain', { claimId: 'claim:1' })).rejects.toMatchObject({ code: 'not-found' });
  });
});

describe('knowledge graph updates and queries', () => {
  it('re-extracts only the edited file, removes a vanished file’s evidence and collects orphans', async () => {
    const s = await indexed(NOTES);
    const extractedAt = () => new Map((db(s).prepare('SELECT path, extracted_at FROM graph_files').all() as Array<{ path: string; extracted_at: number }>).map((r) => [r.path, r.extracted_at]));
    const before = extractedAt();
    await new Promise((r) => setTimeout(r, 5));
    ws!.write('memory/2026-03-01.md', '# 2026-03-01\n\n- Dana moved to Porto last week.\n- Kofi Annan joined the book club.\n');
    await s.invoke('index.sync', {});
    const after = extractedAt();
    for (const [p, at] of after) {
      if (p === 'memory/2026-03-01.md') expect(at).toBeGreaterThan(before.get(p)!);
      else expect(at).toBe(before.get(p));
    }
    expect((await search(s, 'Kofi Annan')).length).toBe(1);
    // Zoe Muller's evidence from the edited file is gone; the MEMORY.md spelling remains.
    const zoe = await entity(s, 'Zoë Müller');
    expect(zoe.evidence.map((e) => e.path)).toEqual(['MEMORY.md']);

    ws!.remove('memory/2026-04-06.md');
    await s.invoke('index.sync', {});
    expect(await search(s, 'Lisbon')).toEqual([]);
    expect(await search(s, 'Priya')).toEqual([]);
    const d = await claimsOf(s, 'Dana');
    expect(relation(d.slice, d.labels, 'Dana', 'moved_to', 'Porto')).toMatchObject({ validUntil: null });
    const orphans = db(s).prepare('SELECT count(*) FROM graph_entities n WHERE NOT EXISTS (SELECT 1 FROM graph_mentions m WHERE m.entity_id = n.id)').pluck().get();
    const orphanClaims = db(s)
      .prepare(
        "SELECT count(*) FROM graph_claims c WHERE CASE WHEN c.predicate = 'mentioned_with' THEN NOT EXISTS (SELECT 1 FROM graph_cooccurrence t WHERE t.subject_id = c.subject_id AND t.object_id = c.object_id) ELSE NOT EXISTS (SELECT 1 FROM graph_claim_evidence e WHERE e.claim_id = c.id) END",
      )
      .pluck()
      .get();
    expect([orphans, orphanClaims]).toEqual([0, 0]);
    expect(db(s).prepare("SELECT count(*) FROM graph_entries g JOIN graph_paths p ON p.id = g.path_id WHERE p.path = 'memory/2026-04-06.md'").pluck().get()).toBe(0);
  });

  it('a forced re-extraction (settled in slices) gives the same graph and validity as the first one', async () => {
    const s = await indexed(NOTES);
    const snapshot = () => ({
      claims: db(s).prepare("SELECT s.key AS subject, c.predicate, o.key AS object, c.literal, c.valid_from, c.valid_until FROM graph_claims c JOIN graph_entities s ON s.id = c.subject_id LEFT JOIN graph_entities o ON o.id = c.object_id ORDER BY 1, 2, 3, 4").all(),
      entities: db(s).prepare('SELECT type, key FROM graph_entities ORDER BY 1, 2').all(),
      evidence: db(s).prepare('SELECT (SELECT count(*) FROM graph_entries) + (SELECT count(*) FROM graph_mentions) + (SELECT count(*) FROM graph_claim_evidence)').pluck().get(),
      tallies: db(s)
        .prepare('SELECT s.key, o.key, t.tool, t.origin, t.entries, t.undated, t.first_observed FROM graph_cooccurrence t JOIN graph_entities s ON s.id = t.subject_id JOIN graph_entities o ON o.id = t.object_id ORDER BY 1, 2, 3, 4')
        .raw()
        .all(),
    });
    const first = snapshot();
    const d = await claimsOf(s, 'Dana');
    expect(relation(d.slice, d.labels, 'Dana', 'moved_to', 'Porto')).toMatchObject({ validFrom: '2026-03-01', validUntil: '2026-04-06' });
    await s.invoke('index.sync', { force: true });
    expect(snapshot()).toEqual(first);
  });

  it('answers neighbors by id, label or alias with hops, explains claims with their lines, and fits overview into a budget', async () => {
    const s = await indexed(NOTES);
    const dana = await entity(s, 'Dana');
    const byId = await s.invoke('graph.neighbors', { entity: dana.id });
    const byLabel = await s.invoke('graph.neighbors', { entity: 'dana' });
    expect(byLabel.center.id).toBe(byId.center.id);
    const two = await s.invoke('graph.neighbors', { entity: 'Dana', hops: 2 });
    expect(two.entities.length).toBeGreaterThanOrEqual(byId.entities.length);
    const budget = await s.invoke('graph.neighbors', { entity: 'Dana', hops: 2, limit: 2 });
    expect(budget.entities).toHaveLength(2);

    const claim = relation(byId.entities.length ? byId : byId, new Map(byId.entities.map((e) => [e.id, e.label])), 'Dana', 'moved_to', 'Lisbon')!;
    const explained = await s.invoke('graph.explain', { claimId: claim.id });
    expect(explained).toMatchObject({ subjectLabel: 'Dana', objectLabel: 'Lisbon', predicate: 'moved_to' });
    expect(explained.lines).toEqual([{ path: 'memory/2026-04-06.md', line: 3, text: '- Lunch with Dana; she moved to Lisbon in March.' }]);

    const full = await s.invoke('graph.overview', { limit: 20_000 });
    expect(full.omitted).toEqual({ entities: 0, edges: 0 });
    const small = await s.invoke('graph.overview', { limit: 3 });
    expect(small.entities).toHaveLength(3);
    expect(small.omitted.entities).toBe(full.totals.entities - 3);
    expect(small.omitted.edges).toBe(full.edges.length - small.edges.length);
    const ids = new Set(small.entities.map((e) => e.id));
    expect(small.edges.every((c) => ids.has(c.subject) && ids.has(c.object!))).toBe(true);
    // The most connected come first.
    const degrees = small.entities.map((e) => e.degree);
    expect(degrees).toEqual([...degrees].sort((x, y) => y - x));
    // The overview leaves evidence lines out (it says so); neighbours carry them on every item.
    expect(full.evidence).toBe('omitted');
    expect(full.entities.every((e) => e.evidence.length === 0) && full.edges.every((c) => c.evidence.length === 0)).toBe(true);
    expect(byId.evidence).toBe('included');
    for (const e of byId.entities) expect(e.evidence.length).toBeGreaterThan(0);
    for (const c of byId.edges) expect(c.evidence[0]).toMatchObject({ path: expect.any(String), startLine: expect.any(Number), endLine: expect.any(Number) });
  });

  it('shows at most 4 relations per entity, each entity’s strongest first, and says how many it left out', async () => {
    const names = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Golf', 'Hotel', 'India', 'Juliett', 'Kilo', 'Lima'];
    const s = await indexed({
      'memory/2026-05-01.md': `# 2026-05-01\n\n- ${names.map((n) => `[[${n}]]`).join(' ')}\n- [[Alpha]] and [[Bravo]] again.\n- [[Alpha]] and [[Bravo]] once more.\n- [[Lima]] and [[Kilo]] again.\n`,
    });
    const all = await s.invoke('graph.overview', { limit: 100 });
    expect(all.entities).toHaveLength(12);
    // 66 pairs among 12 entities; the budget is 4 per entity.
    expect(all.edges).toHaveLength(48);
    expect(all.omitted).toEqual({ entities: 0, edges: 66 - 48 });
    expect(all.totals.claims).toBe(66);
    const label = new Map(all.entities.map((e) => [e.id, e.label]));
    const pairOf = (c: GraphClaim) => [label.get(c.subject), label.get(c.object!)].sort().join('–');
    expect(all.edges.find((c) => pairOf(c) === 'Alpha–Bravo')).toMatchObject({ weight: 3 });
    expect(all.edges.find((c) => pairOf(c) === 'Kilo–Lima')).toMatchObject({ weight: 2 });
    for (const e of all.entities) expect(all.edges.filter((c) => c.subject === e.id || c.object === e.id).length).toBeGreaterThanOrEqual(4);

    // A neighbourhood keeps all of its centre's relations (the detail card lists them), with evidence.
    const alpha = await s.invoke('graph.neighbors', { entity: 'Alpha', limit: 3 });
    expect(alpha.entities).toHaveLength(3);
    expect(alpha.edges.filter((c) => c.subject === alpha.center.id || c.object === alpha.center.id)).toHaveLength(2);
    expect(alpha.edges.every((c) => c.evidence.length > 0)).toBe(true);
  });

  it('adds graph entities to memory.search only when asked', async () => {
    const s = await indexed(NOTES);
    const plain = await s.invoke('memory.search', { query: 'where did Dana move' });
    expect(plain).not.toHaveProperty('graph');
    const withGraph = await s.invoke('memory.search', { query: 'where did Dana move', graph: true });
    expect(withGraph.results.length).toBeGreaterThan(0);
    expect(withGraph.graph?.map((e) => e.label)).toContain('Dana');
  });
});
