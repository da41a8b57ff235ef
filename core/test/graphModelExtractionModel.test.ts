import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ModelInfo, SyncReport } from '../src/contract/index.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import type { ModelExtractionReport } from '../src/graph/modelExtractionPass.js';
import { writeLlamaChatGguf } from './fixtures/gguf.js';
import { graphSnapshot, indexDb, modelItems } from './helpers/graphSnapshot.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

const NOTES = {
  'MEMORY.md': '# Long-Term Memory\n\n- Marek Nowak owns the tax module.\n- Atlas uses restic for nightly backups.\n',
  'memory/2026-03-01.md': '# 2026-03-01\n\n- Dana moved to Porto last week.\n- Call with Zoë Müller about the Rust meetup.\n',
};
const FILES = Object.keys(NOTES).length;

let modelDir: string;
let chatModel: string;
let truncatedModel: string;
beforeAll(() => {
  modelDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-graph-model-'));
  // Random weights: it loads and answers under the grammar, but what it says is nonsense, so validation decides.
  // (Turning the setting off is tested with scripted answers in graphModelExtractionWrite.test.ts: this model's items never survive.)
  chatModel = writeLlamaChatGguf(path.join(modelDir, 'nonsense-chat.gguf'), { contextLength: 4096 });
  const bytes = fs.readFileSync(chatModel);
  truncatedModel = path.join(modelDir, 'truncated-chat.gguf');
  fs.writeFileSync(truncatedModel, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
});
afterAll(() => fs.rmSync(modelDir, { recursive: true, force: true }));

let ws: TempWorkspace | null = null;
let service: MemoryService | null = null;
afterEach(async () => {
  await service?.close();
  ws?.cleanup();
  service = null;
  ws = null;
});

/** A workspace indexed with the rules alone, then the model extraction switched on (with `model` installed as the chat model). */
async function setup(model: string | null, modelTimeoutSeconds = 60) {
  ws = createTempWorkspace(NOTES);
  service = openService(ws);
  await service.invoke('index.sync', {});
  const rules = graphSnapshot(indexDb(service));
  expect(rules.entities.length).toBeGreaterThan(4);
  if (model) expect(await service.invoke('models.pull', { uri: model, role: 'chat' })).toMatchObject({ role: 'chat', active: true } satisfies Partial<ModelInfo>);
  await service.invoke('settings.set', { patch: { graph: { modelExtraction: true, modelTimeoutSeconds } } });
  return { service, rules };
}

async function sync(s: MemoryService): Promise<{ report: SyncReport; model: ModelExtractionReport }> {
  const report = await s.invoke('index.sync', {});
  const model = s.graph.lastUpdate?.model;
  expect(model, 'the update reports its model phase').toBeTruthy();
  return { report, model: model! };
}

const readLines = (p: string) => fs.readFileSync(path.join(ws!.root, p), 'utf8').split(/\r?\n/);
const recorded = (s: MemoryService) => indexDb(s).prepare('SELECT path, sha256, model, items FROM graph_model_files ORDER BY path').all() as Array<{ path: string; sha256: string; model: string; items: number }>;

describe('graph extraction with a chat model (node-llama-cpp, generated GGUF)', () => {
  it('reads every file after the rules, keeps only items that cite lines naming them, and asks again only about a changed file', async () => {
    // A generous answer timeout: on 2 loaded cores the generated model's first answer took over 60 s
    // (the 1 ms timeout test below covers giving up).
    const { service, rules } = await setup(chatModel, 300);
    const { report, model } = await sync(service);
    expect(model).toMatchObject({ model: 'nonsense-chat.gguf', files: FILES, pending: 0, prompts: FILES, removed: 0 });
    expect(model.meanPromptMs).toBeGreaterThan(0);
    if (model.status === 'fallback') {
      // The nonsense model's answers fail validation (or are not JSON): the report says which rule dropped what.
      expect(model.reason).toMatch(/^the chat model('s answers were rejected: .+| returned invalid JSON: .+); the graph keeps what the rules extracted$/);
      expect(report.notices).toContain(`Graph model extraction: ${model.reason}.`);
    } else expect(model.status).toBe('ok');
    expectRulesKept(rules, graphSnapshot(indexDb(service)));
    const items = modelItems(indexDb(service), ws!.root, readLines);
    expect(items.mentions + items.claims > 0).toBe(model.entities + model.claims > 0);
    const files = indexDb(service).prepare("SELECT path, sha256 FROM files WHERE source = 'memory' ORDER BY path").all() as Array<{ path: string; sha256: string }>;
    expect(recorded(service).map((r) => ({ path: r.path, sha256: r.sha256 }))).toEqual(files);

    // Nothing changed: nothing to ask.
    expect((await sync(service)).model).toMatchObject({ status: 'ok', prompts: 0, files: 0, pending: 0 });
    // One file changed: the rules re-extract it, and the model reads that file alone.
    ws!.write('memory/2026-03-01.md', NOTES['memory/2026-03-01.md'] + '- Priya joined the Rust meetup too.\n');
    const edited = await sync(service);
    expect(edited.report.graph?.extracted).toBe(1);
    expect(edited.model).toMatchObject({ files: 1, prompts: 1, pending: 0 });
    const row = recorded(service).find((r) => r.path === 'memory/2026-03-01.md');
    expect(row?.sha256).toBe((indexDb(service).prepare("SELECT sha256 FROM files WHERE path = 'memory/2026-03-01.md'").pluck().get() as string));
    modelItems(indexDb(service), ws!.root, readLines);
  }, 900_000);

  it('gives up on a model that does not answer within the timeout, says so, and keeps the rules’ graph', async () => {
    const { service, rules } = await setup(chatModel, 0.001);
    const started = Date.now();
    const { report, model } = await sync(service);
    expect(model).toMatchObject({
      status: 'fallback',
      reason: 'the chat model did not answer within 1 ms; the graph keeps what the rules extracted',
      prompts: 1, // the first failure stops the phase: no timeout per file
      files: 0,
      pending: FILES,
    });
    expect(report.notices).toContain('Graph model extraction: the chat model did not answer within 1 ms; the graph keeps what the rules extracted.');
    expect(graphSnapshot(indexDb(service))).toEqual(rules);
    expect(recorded(service)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 60_000);

  it('a corrupt chat model fails in its own process: the reason names the load error and the rules’ graph stays', async () => {
    const { service, rules } = await setup(truncatedModel);
    const { model } = await sync(service);
    expect(model).toMatchObject({ status: 'fallback', model: 'truncated-chat.gguf', prompts: 1, files: 0, pending: FILES });
    expect(model.reason).toMatch(/^the chat model (could not answer: .+|process .+); the graph keeps what the rules extracted$/);
    expect(graphSnapshot(indexDb(service))).toEqual(rules);
    // The engine is still here and answers.
    expect((await service.invoke('graph.search', { text: 'Marek Nowak' })).entities.length).toBeGreaterThan(0);
  }, 60_000);

  it('with no chat model installed, says how to add one and builds the graph by the rules', async () => {
    const { service, rules } = await setup(null);
    const { model } = await sync(service);
    expect(model).toMatchObject({ status: 'fallback', model: null, prompts: 0 });
    expect(model.reason).toMatch(/^no chat model is installed: add one in Settings → Models .+reverie models pull/);
    expect(graphSnapshot(indexDb(service))).toEqual(rules);
  }, 60_000);
});

/** The rules' entities and claims are all still there (the model may add mentions, pairs and earlier dates, never take away). */
function expectRulesKept(rules: ReturnType<typeof graphSnapshot>, after: ReturnType<typeof graphSnapshot>): void {
  const entity = (e: string) => e.replace(/ x\d+$/, '');
  const claim = (c: string) => c.replace(/ \S*\.\.\S*$/, '');
  expect(after.entities.map(entity)).toEqual(expect.arrayContaining(rules.entities.map(entity)));
  expect(after.claims.map(claim)).toEqual(expect.arrayContaining(rules.claims.map(claim)));
}
