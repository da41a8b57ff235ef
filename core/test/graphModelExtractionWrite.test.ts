/**
 * The model phase's writing, with hand-written answers in place of the chat model process
 * (its real runs are in graphModelExtractionModel.test.ts): items land in the graph marked as
 * the model's, keep their lines' origin, merge with the rules' entities, and go away when the
 * file changes (asked again) or the setting is switched off.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatModelRequest, ModelAnswer } from '../src/platform/chatModel/chatProcess.js';
import type { GraphEvidence } from '../src/contract/index.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { recordWrittenLines } from '../src/provenance/recordWrites.js';
import { graphSnapshot, indexDb, modelItems } from './helpers/graphSnapshot.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

/** Answers like a careful model would: every word of the scripted names found in an entry, plus one invented name and a relation. */
const NAMES: Record<string, 'person' | 'tool' | 'place'> = { Oddny: 'person', Borgbackup: 'tool', Tromsø: 'place', Zed: 'tool' };
const asked: string[] = [];
/** While set, the scripted model does not answer until it is released (or the caller gives up). */
let slowModel: { release(): void; answering: Promise<void>; answer(): void } | null = null;
vi.mock('../src/platform/chatModel/chatProcess.js', async (original) => ({
  ...(await original<Record<string, unknown>>()),
  // The update's session, answering each prompt with scriptedModel.
  ChatModelSession: (await import('./helpers/scriptedChat.js')).scriptedSession((request) => scriptedModel(request)),
}));

/** Hand-written answers in place of the chat model process. */
async function scriptedModel(request: ChatModelRequest): Promise<ModelAnswer> {
    asked.push(request.prompt);
    if (slowModel) {
      slowModel.answer();
      const released = new Promise<void>((resolve) => (slowModel!.release = resolve));
      await Promise.race([released, new Promise((resolve) => request.signal?.addEventListener('abort', resolve))]);
      if (request.signal?.aborted) return { ok: false, reason: 'the chat model process was stopped' };
    }
    const entries = [...request.prompt.matchAll(/^\{"id":"(e\d+)","text":(".*")\}$/gm)].map((m) => ({ id: m[1]!, text: JSON.parse(m[2]!) as string }));
    const entities = entries.flatMap((e) => [
      ...Object.entries(NAMES)
        .filter(([name]) => e.text.toLowerCase().includes(name.toLowerCase()))
        .map(([label, type]) => ({ entry: e.id, label: label.toUpperCase(), type })),
      { entry: e.id, label: 'Gandalf', type: 'person' }, // not in the text: dropped
    ]);
    const relations = entries
      .filter((e) => /oddny/i.test(e.text) && /borgbackup/i.test(e.text))
      .map((e) => ({ entry: e.id, subject: 'oddny', predicate: 'relies on', object: 'BORGBACKUP' }));
    const json = { entities, relations };
    return { ok: true, json, raw: JSON.stringify(json) };
}

const NOTES = {
  'MEMORY.md': '# Long-Term Memory\n\n- Oddny keeps the borgbackup jobs for the Tromsø cabin.\n- Marek Nowak owns the tax module.\n',
  'memory/2026-03-01.md': '# 2026-03-01\n\n- Tried zed as an editor; Oddny liked it.\n',
};

let ws: TempWorkspace | null = null;
let service: MemoryService | null = null;
afterEach(async () => {
  await service?.close();
  ws?.cleanup();
  service = null;
  ws = null;
  asked.length = 0;
  slowModel = null;
});

async function setup(): Promise<{ s: MemoryService; rules: ReturnType<typeof graphSnapshot>; modelFile: string }> {
  ws = createTempWorkspace(NOTES);
  const modelFile = path.join(ws.dataDir, 'scripted-chat.gguf');
  fs.mkdirSync(ws.dataDir, { recursive: true });
  fs.writeFileSync(modelFile, 'GGUF'); // a header is all the model store checks; the scripted runner never loads it
  service = openService(ws);
  await service.invoke('index.sync', {});
  const rules = graphSnapshot(indexDb(service));
  await service.invoke('models.pull', { uri: modelFile, role: 'chat' });
  await service.invoke('settings.set', { patch: { graph: { modelExtraction: true, modelTimeoutSeconds: 60 } } });
  return { s: service, rules, modelFile };
}

const readLines = (p: string) => fs.readFileSync(path.join(ws!.root, p), 'utf8').split(/\r?\n/);
const byModel = (s: MemoryService) =>
  indexDb(s)
    .prepare("SELECT e.type || ' ' || e.label || ' ' || gp.path || ':' || g.start_line || ' ' || g.origin FROM graph_mentions m JOIN graph_entities e ON e.id = m.entity_id JOIN graph_entries g ON g.id = m.entry_id JOIN graph_paths gp ON gp.id = g.path_id WHERE m.by_model = 1 ORDER BY 1")
    .pluck()
    .all() as string[];

describe('writing what the chat model extracted', () => {
  it('adds validated items to the entries, marked as the model’s and below the rules’ confidence, merged with the rules’ entities', async () => {
    const { s, rules } = await setup();
    await s.invoke('index.sync', {});
    const model = s.graph.lastUpdate!.model!;
    expect(model).toMatchObject({ status: 'ok', files: 2, prompts: 2, pending: 0, dropped: { labelNotInText: 3 } });
    expect(asked).toHaveLength(2);
    // Names the rules missed (lower-case words, and "Oddny", only ever sentence-initial) are the model's;
    // those the rules found (Tromsø, Marek Nowak) stay theirs, with their type.
    expect(byModel(s)).toEqual([
      'person Oddny MEMORY.md:3 owner',
      'person Oddny memory/2026-03-01.md:3 owner',
      'tool borgbackup MEMORY.md:3 owner',
      'tool zed memory/2026-03-01.md:3 owner',
    ]);
    expect(indexDb(s).prepare("SELECT type FROM graph_entities WHERE key = 'tromsø'").pluck().get()).toBe('concept');
    expect(modelItems(indexDb(s), ws!.root, readLines)).toEqual({ mentions: 4, claims: 1 });
    const claim = indexDb(s)
      .prepare("SELECT s.label AS subject, c.predicate, o.label AS object, c.confidence FROM graph_claims c JOIN graph_entities s ON s.id = c.subject_id JOIN graph_entities o ON o.id = c.object_id WHERE c.predicate = 'relies_on'")
      .get();
    expect(claim).toEqual({ subject: 'Oddny', predicate: 'relies_on', object: 'borgbackup', confidence: 0.4 });
    expect(indexDb(s).prepare("SELECT count(*) FROM graph_entities WHERE key = 'oddny'").pluck().get()).toBe(1);
    const after = graphSnapshot(indexDb(s));
    expect(after.claims).toEqual(expect.arrayContaining(rules.claims.filter((c) => !c.includes('mentioned_with'))));
  });

  it('gives way to a sync that waits (an edit): the prompt in flight is abandoned without a failure, and asked again later', async () => {
    const { s } = await setup();
    let asking!: () => void;
    slowModel = { release: () => undefined, answering: new Promise<void>((resolve) => (asking = resolve)), answer: () => asking() };
    const first = s.invoke('index.sync', {});
    await slowModel.answering; // the model phase is waiting for its first answer
    fs.appendFileSync(path.join(ws!.root, 'memory/2026-03-01.md'), '- Quillmoss joined the standup.\n');
    const started = performance.now();
    const edit = s.invoke('index.sync', {});
    // The first pass gives way (its prompt abandoned, both files still pending). A sync waits for the graph of every
    // sync queued behind it, so the first one resolves only after the edit's pass: release the model first.
    await vi.waitFor(() => expect(s.graph.lastUpdate?.model).toMatchObject({ status: 'ok', files: 0, pending: 2 }), { timeout: 30_000, interval: 5 });
    const slow = slowModel;
    slowModel = null;
    slow.release(); // in case the edit's pass already asked
    const report = await first;
    expect(report.notices.filter((n) => n.startsWith('Graph model extraction'))).toEqual([]);
    await edit;
    expect(performance.now() - started).toBeLessThan(10_000); // not the prompt's 60 s timeout
    const found = await s.invoke('memory.search', { query: 'Quillmoss' });
    expect(found.results.length).toBeGreaterThan(0);
    // The waiting sync's own model phase read both files.
    expect(s.graph.lastUpdate!.model).toMatchObject({ status: 'ok', files: 2, pending: 0 });
  });

  it('says on each evidence line whether the model or the rules extracted it (graph.neighbors, graph.explain)', async () => {
    const { s } = await setup();
    await s.invoke('index.sync', {});
    const near = await s.invoke('graph.neighbors', { entity: 'Oddny' });
    const label = new Map(near.entities.map((e) => [e.id, e.label]));
    const lines = (item: { evidence: GraphEvidence[] }) => item.evidence.map((e) => `${e.path}:${e.startLine} ${e.byModel}`);
    // Only the model named Oddny; the rules named Tromsø (in the same line).
    expect(lines(near.center)).toEqual(['MEMORY.md:3 true', 'memory/2026-03-01.md:3 true']);
    expect(lines(near.entities.find((e) => e.label === 'Tromsø')!)).toEqual(['MEMORY.md:3 false']);
    const edge = (predicate: string, a: string, b: string) =>
      near.edges.find((c) => c.predicate === predicate && c.object !== null && [label.get(c.subject), label.get(c.object)].sort().join('|') === [a, b].sort().join('|'))!;
    // The model's relation, and pairs the model's names made (the note's title is no entity: rules' pairs are checked on line 4 below).
    expect(lines(edge('relies_on', 'Oddny', 'borgbackup'))).toEqual(['MEMORY.md:3 true']);
    expect(lines(edge('mentioned_with', 'Oddny', 'Tromsø'))).toEqual(['MEMORY.md:3 true']);
    expect(lines(edge('mentioned_with', 'Tromsø', 'borgbackup'))).toEqual(['MEMORY.md:3 true']);
    const explained = await s.invoke('graph.explain', { claimId: edge('relies_on', 'Oddny', 'borgbackup').id });
    expect(explained.evidence.map((e) => e.byModel)).toEqual([true]);

    // The rules' relation and pair, in a line the model read too.
    const marek = await s.invoke('graph.neighbors', { entity: 'Marek Nowak' });
    expect(lines(marek.center)).toEqual(['MEMORY.md:4 false']);
    expect(marek.edges.length).toBeGreaterThan(0);
    for (const c of marek.edges) expect(lines(c), c.predicate).toEqual(['MEMORY.md:4 false']);
  });

  it('keeps untrusted lines untrusted when the model reads them', async () => {
    const { s } = await setup();
    const lines = readLines('memory/2026-03-01.md');
    recordWrittenLines(indexDb(s), 'memory/2026-03-01.md', [lines[2]!], { origin: 'untrusted', via: 'import', actor: 'test', detail: null });
    fs.appendFileSync(path.join(ws!.root, 'memory/2026-03-01.md'), '\n'); // a new version, so both passes read it again
    await s.invoke('index.sync', {});
    expect(byModel(s)).toContain('tool zed memory/2026-03-01.md:3 untrusted');
  });

  it('asks again about a changed file, replacing what the model said about the old version', async () => {
    const { s } = await setup();
    await s.invoke('index.sync', {});
    ws!.write('memory/2026-03-01.md', '# 2026-03-01\n\n- Moved the photos off zed; the Tromsø trip is booked.\n');
    await s.invoke('index.sync', {});
    expect(s.graph.lastUpdate!.model).toMatchObject({ files: 1, prompts: 1 });
    // Oddny left the edited file: the model's mention of her there went with the old version.
    expect(byModel(s)).toEqual(['person Oddny MEMORY.md:3 owner', 'tool borgbackup MEMORY.md:3 owner', 'tool zed memory/2026-03-01.md:3 owner']);
    expect(modelItems(indexDb(s), ws!.root, readLines).mentions).toBe(3);
  });

  it('switching the setting off removes every model item and gives back the rules’ graph', async () => {
    const { s, rules } = await setup();
    await s.invoke('index.sync', {});
    expect(byModel(s).length).toBeGreaterThan(0);
    await s.invoke('settings.set', { patch: { graph: { modelExtraction: false, modelTimeoutSeconds: 60 } } });
    await s.invoke('index.sync', {});
    expect(s.graph.lastUpdate!.model).toMatchObject({ status: 'off', removed: 2 });
    expect(byModel(s)).toEqual([]);
    expect(indexDb(s).prepare('SELECT count(*) FROM graph_claim_evidence WHERE by_model = 1').pluck().get()).toBe(0);
    expect(indexDb(s).prepare('SELECT count(*) FROM graph_model_files').pluck().get()).toBe(0);
    expect(graphSnapshot(indexDb(s))).toEqual(rules);
  });
});
