import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { HashEmbeddingProvider } from '../src/embed/hashProvider.js';
import { normalizeInPlace } from '../src/embed/provider.js';
import { sha256Hex } from '../src/platform/hash.js';
import { importanceMultiplier, noteDate, triggerPhrases } from '../src/search/annotations.js';
import { writeBertGguf } from './fixtures/gguf.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace;
let service: MemoryService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
  delete process.env.REVERIE_DISABLE_SQLITE_VEC;
  ws?.cleanup();
});

const status = (s: MemoryService) => s.invoke('status', {});
const search = async (s: MemoryService, query: string, extra: object = {}) =>
  (await s.invoke('memory.search', { query, ...extra })).results;

describe('hash embeddings', () => {
  it('are deterministic, unit length, fixed-size, and close for spelling variants', async () => {
    const p = new HashEmbeddingProvider();
    const [a, b] = await p.embedBatch(['I like to de-stress by running', 'I like to de-stress by running']);
    expect(a).toHaveLength(384);
    expect(Array.from(a!)).toEqual(Array.from(b!));
    expect(Math.hypot(...a!)).toBeCloseTo(1, 5);
    const sim = (x: Float32Array, y: Float32Array) => x.reduce((n, v, i) => n + v * y[i]!, 0);
    const q = await p.embedQuery('destress');
    expect(sim(q, a!)).toBeGreaterThan(sim(q, await p.embedQuery('quarterly tax filing deadline')));
  });

  it('are the vectors earlier versions stored: indexes keep the bits and floats they wrote, and the re-rank recomputes them', () => {
    // sha256 of the float bytes, as the provider computed them before its ASCII word scan and signed slots.
    const golden: Array<[string, string]> = [
      ['- The NAS is called atlas and runs restic backups — nightly, to a Hetzner box.', '46f2037078de31b1'],
      ['Café au lait in Zürich; 東京 trip booked', '0914a3a1d8410871'],
      ['ALL CAPS words, digits 2026-04-05 and x9y', '60caccb0a5e4c3f6'],
      ['', '80422bc3d307b4a2'],
      ['𝐁old math letters and emoji 🎉 party', 'c4a56eb6b87f68e8'],
    ];
    const p = new HashEmbeddingProvider();
    for (const [text, hash] of golden) expect([text, sha256Hex(Buffer.from(p.embedSync(text).buffer)).slice(0, 16)]).toEqual([text, hash]);
  });

  it('rejects NaN and infinite values with a clear message', () => {
    expect(() => normalizeInPlace(new Float32Array([1, Number.NaN]))).toThrow(/non-finite value \(NaN\) at position 1/);
    expect(() => normalizeInPlace(new Float32Array([Infinity]))).toThrow(/non-finite/);
  });
});

describe('annotations', () => {
  it('reads importance, triggers and note dates', () => {
    expect(importanceMultiplier('- fact <!-- importance: 5 -->')).toBeCloseTo(1.0);
    expect(importanceMultiplier('- fact <!-- importance: 10 -->')).toBeCloseTo(1.25);
    expect(importanceMultiplier('- plain')).toBe(1);
    expect(triggerPhrases('- x <!-- trigger: deploy day, release -->')).toEqual(['deploy day', 'release']);
    expect(noteDate('memory/2026-04-05.md')?.toISOString()).toBe('2026-04-05T00:00:00.000Z');
    expect(noteDate('memory/2026-04-05-trip.md')).not.toBeNull();
    expect(noteDate('MEMORY.md')).toBeNull();
  });
});

describe('hybrid search', () => {
  it('embeds every chunk with the hash provider and explains each score', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    service = openService(ws);
    await service.invoke('index.sync', {});
    const st = await status(service);
    expect(st.embedding).toMatchObject({ provider: 'hash', dims: 384, vectorBackend: 'sqlite-vec', running: false, lastError: null });
    expect(st.embedding.embedded).toBe(st.index.chunks);
    const [top] = await search(service, 'heron by the canal restic');
    expect(top?.breakdown).toMatchObject({ fusion: 'weighted', passage: expect.any(Number), date: 0 });
    expect(top?.matchedBy).toContain('keyword');
    // A typo finds nothing by keyword but still finds the note by its vector.
    const typo = await search(service, 'Piranessi Clarke');
    expect(typo[0]?.path).toBe('memory/2026-04-05.md');
  });

  it('boosts annotated importance and trigger phrases, and decays old dated notes only down to the floor', async () => {
    ws = createTempWorkspace({
      'memory/2020-01-01.md': '# old\n- the kettle descaling routine\n',
      'memory/2020-01-02.md': '# old\n- the kettle descaling routine <!-- importance: 10 -->\n',
      'MEMORY.md': '# Memory\n- the kettle descaling routine <!-- trigger: limescale -->\n',
    });
    service = openService(ws);
    await service.invoke('index.sync', {});
    const results = await search(service, 'kettle descaling routine limescale');
    const byPath = Object.fromEntries(results.map((r) => [r.path, r]));
    expect(byPath['MEMORY.md']!.breakdown).toMatchObject({ decay: 1, trigger: 1.25 });
    expect(byPath['memory/2020-01-02.md']!.breakdown!.importance).toBeCloseTo(1.25);
    expect(byPath['memory/2020-01-01.md']!.breakdown!.decay).toBeGreaterThanOrEqual(0.5);
    expect(byPath['memory/2020-01-01.md']!.breakdown!.decay).toBeLessThan(0.6);
    expect(results[0]!.path).toBe('MEMORY.md');
  });

  it('falls back to a bounded vector scan without sqlite-vec, rebuilding an index that used it, and says so', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    service = openService(ws);
    await service.invoke('index.sync', {});
    await service.close();
    process.env.REVERIE_DISABLE_SQLITE_VEC = '1';
    service = openService(ws);
    const report = await service.invoke('index.sync', {});
    expect(report.notices.join(' ')).toMatch(/sqlite-vec.*rebuilt with exact vector scans/);
    const st = await status(service);
    expect(st.embedding).toMatchObject({ vectorBackend: 'scan', vectorBackendProblem: expect.stringContaining('disabled') });
    expect(st.embedding.embedded).toBe(st.index.chunks);
    const [top] = await search(service, 'reading piranessi');
    expect(top?.path).toBe('memory/2026-04-05.md');
    expect(top?.breakdown?.vector).toBeGreaterThan(0.15);
  });

  it('switches to a local GGUF embedding model, re-embeds in its own generation, and back to hash when removed', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    service = openService(ws);
    await service.invoke('index.sync', {});
    const model = writeBertGguf(path.join(ws.dataDir, '..', 'tiny-bert.gguf'), { embeddingLength: 32, seed: 7 });
    const installed = await service.invoke('models.pull', { uri: model, role: 'embedding' });
    expect(installed.active).toBe(true);
    await service.switchEmbeddingProvider();
    let st = await status(service);
    expect(st.embedding).toMatchObject({ provider: 'llama', dims: 32, lastError: null });
    expect(st.embedding.embedded).toBe(st.index.chunks);
    expect((await search(service, 'restic backups'))[0]?.path).toBe('MEMORY.md');
    const list = await service.invoke('models.list', {});
    expect(list.models.map((m) => m.id)).toEqual([installed.id]);

    await service.invoke('models.remove', { model: installed.id });
    await service.switchEmbeddingProvider();
    st = await status(service);
    expect(st.embedding).toMatchObject({ provider: 'hash', dims: 384 });
    expect(fs.readdirSync(path.join(ws.dataDir, 'models')).filter((f) => f.endsWith('.gguf'))).toEqual([]);
  }, 60_000);
});
