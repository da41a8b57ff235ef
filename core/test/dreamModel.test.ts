import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DreamRun } from '../src/contract/index.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { writeLlamaChatGguf } from './fixtures/gguf.js';
import { dream, recallOver, testClock } from './helpers/dreaming.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

const NOTES = {
  'MEMORY.md': '# Long-Term Memory\n\n- Keep the gateway on loopback. <!-- importance: 9 -->\n',
  'memory/2026-11-27.md': '# 2026-11-27\n\n- Moved the production deploy target from fly.io to a Hetzner box named ledgerd-prod-2.\n- Invoice fonts are still missing glyphs.\n',
};
const PRODUCTION_RECALLS = [
  { query: 'where does production deploy now', daysAgo: 2 },
  { query: 'ledgerd-prod-2 hetzner box', daysAgo: 1 },
  { query: 'production deploy target moved from fly.io', daysAgo: 0 },
  { query: 'hetzner production host', daysAgo: 0 },
];
const PRODUCTION_KEY = 'memory/2026-11-27.md:3:3';
/** The fallback writer's exact format: OpenClaw's heading and promotion marker, then the entry and its source (no score text). */
const FALLBACK_SECTION = new RegExp(
  '\\n## Promoted From Short-Term Memory \\(2026-11-29\\)\\n' +
    '<!-- openclaw-memory-promotion:memory:memory/2026-11-27\\.md:3:3 -->\\n' +
    '- Moved the production deploy target from fly\\.io to a Hetzner box named ledgerd-prod-2\\. Source: memory/2026-11-27\\.md#L3-L3\\n$',
);

let modelDir: string;
let chatModel: string;
let tinyContextModel: string;
beforeAll(() => {
  modelDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-dream-model-'));
  // Random weights: it loads and answers under the JSON grammar, but what it says is nonsense.
  chatModel = writeLlamaChatGguf(path.join(modelDir, 'nonsense-chat.gguf'), { contextLength: 4096 });
  tinyContextModel = writeLlamaChatGguf(path.join(modelDir, 'tiny-context-chat.gguf'));
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

async function setupWithModel(model: string) {
  ws = createTempWorkspace(NOTES);
  const clock = testClock(new Date(2026, 10, 29, 3, 0, 0).getTime());
  service = openService(ws, { now: clock.now });
  const installed = await service.invoke('models.pull', { uri: model, role: 'chat' });
  expect(installed).toMatchObject({ role: 'chat', active: true, source: model, file: path.basename(model) });
  // Copied into the data folder: that copy is what the sweep loads.
  expect(fs.existsSync(path.join(ws.dataDir, 'models', installed.file))).toBe(true);
  expect(service.models.activeModel('chat')).toMatchObject({ id: installed.id, present: true });
  await service.sync(false);
  await recallOver(service, clock, PRODUCTION_RECALLS);
  return { service, file: installed.file };
}

const memory = () => fs.readFileSync(path.join(ws!.root, 'MEMORY.md'), 'utf8');

function expectFallbackWrite(run: DreamRun): void {
  expect(run.status).toBe('ok');
  expect(run.promoted).toEqual([expect.objectContaining({ candidateKey: PRODUCTION_KEY, target: 'MEMORY.md', action: 'added', decision: 'auto' })]);
  expect(run.writes.find((w) => w.file === 'MEMORY.md')?.outcome).toBe('written');
  const text = memory();
  expect(text.startsWith(NOTES['MEMORY.md'])).toBe(true);
  expect(text).toMatch(FALLBACK_SECTION);
  expect(text).not.toContain('openclaw-memory-lineage'); // that marker is the model path's
}

describe('dreaming with a chat model (node-llama-cpp, generated GGUF)', () => {
  it('a nonsense answer from the real model is rejected; the run says why and the fallback writes MEMORY.md', async () => {
    const { service, file } = await setupWithModel(chatModel);
    const run = await dream(service);
    expect(run.consolidation.mode).toBe('fallback');
    expect(run.consolidation.model).toBe(file);
    expect(run.consolidation.fallbackReason).toMatch(/^the chat model('s answer was rejected: .+| returned invalid JSON: .+)$/);
    expectFallbackWrite(run);
    // The reason is kept with the run, as stored.
    expect((await service.invoke('dream.get', { runId: run.id })).consolidation).toEqual(run.consolidation);
  }, 60_000);

  it('a model that does not answer within modelTimeoutSeconds is given up on; the sweep still completes', async () => {
    const { service } = await setupWithModel(chatModel);
    await service.invoke('settings.set', { patch: { dreaming: { modelTimeoutSeconds: 0.001 } } });
    const started = Date.now();
    const run = await dream(service);
    expect(run.consolidation).toMatchObject({ mode: 'fallback', fallbackReason: 'the chat model did not answer within 1 ms' });
    expectFallbackWrite(run);
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 60_000);

  it('a prompt larger than the model context falls back with that reason', async () => {
    const { service } = await setupWithModel(tinyContextModel);
    const run = await dream(service);
    expect(run.consolidation).toMatchObject({ mode: 'fallback', fallbackReason: expect.stringMatching(/does not fit the model's context of 64 tokens/) });
    expectFallbackWrite(run);
  }, 60_000);
});
