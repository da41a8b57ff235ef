/**
 * The rules never build on a name only the chat model gave: a capitalised word in another
 * file must not join it, so turning the model off gives back exactly the rules' graph
 * (hand-written answers in place of the chat model process, as in graphModelExtractionWrite).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatModelRequest, ModelAnswer } from '../src/platform/chatModel/chatProcess.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { graphSnapshot, indexDb } from './helpers/graphSnapshot.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

/** Names the model recognises by their role ("the zorblat relay") and nowhere else, as a small model might. */
const RECOGNISED = [
  { context: /zorblat relay/i, label: 'Zorblat', type: 'tool' },
  { context: /quorvex dashboard/i, label: 'Quorvex', type: 'concept' },
];
vi.mock('../src/platform/chatModel/chatProcess.js', async (original) => ({
  ...(await original<Record<string, unknown>>()),
  // The update's session, answering each prompt with scriptedModel.
  ChatModelSession: (await import('./helpers/scriptedChat.js')).scriptedSession((request) => scriptedModel(request)),
}));

/** Hand-written answers in place of the chat model process. */
async function scriptedModel(request: ChatModelRequest): Promise<ModelAnswer> {
    const entries = [...request.prompt.matchAll(/^\{"id":"(e\d+)","text":(".*")\}$/gm)].map((m) => ({ id: m[1]!, text: JSON.parse(m[2]!) as string }));
    const entities = entries.flatMap((e) => RECOGNISED.filter((r) => r.context.test(e.text)).map((r) => ({ entry: e.id, label: r.label, type: r.type })));
    const json = { entities, relations: [] };
    return { ok: true, json, raw: JSON.stringify(json) };
}

const A = 'memory/2026-03-01.md';
const B = 'memory/2026-03-02.md';
const NOTE_A = '# 2026-03-01\n\n- Rebooted the zorblat relay on the roof with Marek Nowak.\n- Checked the quorvex dashboard.\n';
const NOTE_B_BEFORE = '# 2026-03-02\n\n- Quiet day with Marek Nowak.\n';

const opened: Array<{ ws: TempWorkspace; s: MemoryService }> = [];
afterEach(async () => {
  for (const { ws, s } of opened.splice(0)) {
    await s.close();
    ws.cleanup();
  }
});

function open(files: Record<string, string>): { ws: TempWorkspace; s: MemoryService } {
  const ws = createTempWorkspace(files);
  const s = openService(ws);
  opened.push({ ws, s });
  return { ws, s };
}

/** The graph the rules alone extract from these files (a workspace that never had a model). */
async function rulesOnly(files: Record<string, string>): Promise<ReturnType<typeof graphSnapshot>> {
  const { s } = open(files);
  await s.invoke('index.sync', {});
  return graphSnapshot(indexDb(s));
}

/** Mentions of `key` by kind: the rules' (by_model = 0) and the model's. */
const mentionsOf = (s: MemoryService, key: string) =>
  indexDb(s)
    .prepare("SELECT gp.path || (CASE m.by_model WHEN 1 THEN ' model' ELSE ' rules' END) FROM graph_mentions m JOIN graph_entities e ON e.id = m.entity_id JOIN graph_entries g ON g.id = m.entry_id JOIN graph_paths gp ON gp.id = g.path_id WHERE e.key = ? ORDER BY 1")
    .pluck()
    .all(key) as string[];

async function withModel(files: Record<string, string>): Promise<{ ws: TempWorkspace; s: MemoryService }> {
  const opened = open(files);
  const modelFile = path.join(opened.ws.dataDir, 'scripted-chat.gguf');
  fs.mkdirSync(opened.ws.dataDir, { recursive: true });
  fs.writeFileSync(modelFile, 'GGUF'); // a header is all the model store checks; the scripted runner never loads it
  await opened.s.invoke('index.sync', {});
  await opened.s.invoke('models.pull', { uri: modelFile, role: 'chat' });
  await opened.s.invoke('settings.set', { patch: { graph: { modelExtraction: true, modelTimeoutSeconds: 60 } } });
  await opened.s.invoke('index.sync', {});
  return opened;
}

describe('the rules and a name only the model gave', () => {
  it('a sentence-initial word in another file does not join it, so switching the model off gives back the rules’ graph', async () => {
    const { ws, s } = await withModel({ [A]: NOTE_A, [B]: NOTE_B_BEFORE });
    expect(mentionsOf(s, 'zorblat')).toEqual([`${A} model`]);

    // "Zorblat" only ever sentence-initial here: the rules keep such a word only when the graph knows it by the rules.
    const noteB = '# 2026-03-02\n\n- Zorblat was back by noon, said Marek Nowak.\n';
    ws.write(B, noteB);
    await s.invoke('index.sync', {});
    expect(s.graph.lastUpdate!.extracted).toBe(1);
    expect(mentionsOf(s, 'zorblat')).toEqual([`${A} model`]);

    await s.invoke('settings.set', { patch: { graph: { modelExtraction: false, modelTimeoutSeconds: 60 } } });
    await s.invoke('index.sync', {});
    expect(s.graph.lastUpdate!.model).toMatchObject({ status: 'off', removed: 1 });
    expect(mentionsOf(s, 'zorblat')).toEqual([]);
    expect(graphSnapshot(indexDb(s))).toEqual(await rulesOnly({ [A]: NOTE_A, [B]: noteB }));
  });

  it('a capitalised name in another file makes an entity of its own rather than taking the model’s type', async () => {
    const { ws, s } = await withModel({ [A]: NOTE_A, [B]: NOTE_B_BEFORE });
    const noteB = '# 2026-03-02\n\n- Marek Nowak said Zorblat was back by noon.\n';
    ws.write(B, noteB);
    await s.invoke('index.sync', {});
    const types = () => indexDb(s).prepare("SELECT type FROM graph_entities WHERE key = 'zorblat' ORDER BY type").pluck().all();
    expect(types()).toEqual(['concept', 'tool']);
    expect(mentionsOf(s, 'zorblat')).toEqual([`${A} model`, `${B} rules`]);

    await s.invoke('settings.set', { patch: { graph: { modelExtraction: false, modelTimeoutSeconds: 60 } } });
    await s.invoke('index.sync', {});
    expect(types()).toEqual(['concept']);
    expect(graphSnapshot(indexDb(s))).toEqual(await rulesOnly({ [A]: NOTE_A, [B]: noteB }));
  });

  it('a capitalised name joins the model’s concept of that name (one entity per type and key) and keeps it when the model goes', async () => {
    const { ws, s } = await withModel({ [A]: NOTE_A, [B]: NOTE_B_BEFORE });
    const noteB = '# 2026-03-02\n\n- Marek Nowak said Quorvex was slow again.\n';
    ws.write(B, noteB);
    await s.invoke('index.sync', {});
    expect(s.graph.lastUpdate!.extracted).toBe(1);
    expect(mentionsOf(s, 'quorvex')).toEqual([`${A} model`, `${B} rules`]);

    await s.invoke('settings.set', { patch: { graph: { modelExtraction: false, modelTimeoutSeconds: 60 } } });
    await s.invoke('index.sync', {});
    expect(mentionsOf(s, 'quorvex')).toEqual([`${B} rules`]);
    expect(graphSnapshot(indexDb(s))).toEqual(await rulesOnly({ [A]: NOTE_A, [B]: noteB }));
  });
});
