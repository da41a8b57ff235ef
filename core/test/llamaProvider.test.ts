import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../src/platform/processAlive.js';
import { inspectGguf } from '../src/embed/llama/ggufInspect.js';
import { batchTexts, LlamaEmbeddingProvider, resolveThreadCount } from '../src/embed/llama/llamaEmbeddingProvider.js';
import { poolWindowVectors, splitIntoWindows } from '../src/embed/llama/tokenWindows.js';
import { generationId } from '../src/embed/provider.js';
import { encodeGguf } from './fixtures/ggufWriter.js';
import {
  bertFixture,
  FIXTURE_WORDS,
  writeAbortingGguf,
  writeBertGguf,
  writeLlamaChatGguf,
  writeRandomBytesGguf,
  writeTruncatedGguf,
} from './fixtures/gguf.js';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-llama-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const norm = (v: Float32Array): number => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
const cosine = (a: Float32Array, b: Float32Array): number => a.reduce((sum, x, i) => sum + x * b[i]!, 0);
/** `count` words that are each one token in the fixture vocabulary. */
const words = (count: number, offset = 0): string =>
  Array.from({ length: count }, (_, i) => FIXTURE_WORDS[(offset + i * 7) % FIXTURE_WORDS.length]).join(' ');
describe('generated GGUF fixtures', () => {
  it('are byte-for-byte reproducible from a seed', () => {
    expect(encodeGguf(bertFixture({ seed: 5 })).equals(encodeGguf(bertFixture({ seed: 5 })))).toBe(true);
    expect(encodeGguf(bertFixture({ seed: 5 })).equals(encodeGguf(bertFixture({ seed: 6 })))).toBe(false);
  });

  it('read back through inspectGguf', async () => {
    const file = writeBertGguf(path.join(dir, 'inspect.gguf'), { embeddingLength: 64, contextLength: 128, blockCount: 2 });
    expect(await inspectGguf(file)).toMatchObject({
      version: 3,
      architecture: 'bert',
      embeddingLength: 64,
      contextLength: 128,
      poolingType: 1,
      causalAttention: false,
      notEmbeddingReason: undefined,
    });
    const chat = await inspectGguf(writeLlamaChatGguf(path.join(dir, 'inspect-chat.gguf')), 'any');
    expect(chat.architecture).toBe('llama');
    expect(chat.notEmbeddingReason).toMatch(/text-generation/);
  });
});

describe('long-text windows and batches', () => {
  it('splits tokens into near-equal windows that cover every token', () => {
    const tokens = Array.from({ length: 130 }, (_, i) => i);
    const windows = splitIntoWindows(tokens, 61);
    expect(windows.map((w) => w.length)).toEqual([43, 44, 43]);
    expect(windows.flat()).toEqual(tokens);
    expect(splitIntoWindows([1, 2], 61)).toEqual([[1, 2]]);
  });

  it('pools window vectors by token count', () => {
    const pooled = poolWindowVectors([[2, 0], [0, 1]], [3, 1]);
    expect(Array.from(pooled)).toEqual([0.75, 0.25]);
  });

  it('bounds batches by text count and characters', () => {
    expect(batchTexts(['a', 'b', 'c', 'd', 'e'], 2).map((b) => b.length)).toEqual([2, 2, 1]);
    expect(batchTexts(['aaaa', 'bbbb', 'c'], 10, 6).map((b) => b.length)).toEqual([1, 2]);
  });

  it('never uses more threads than cores', () => {
    const cores = os.availableParallelism();
    expect(resolveThreadCount(1000)).toBe(cores);
    expect(resolveThreadCount(undefined)).toBe(Math.max(1, cores - 1));
    expect(resolveThreadCount(0)).toBe(1);
  });
});

describe('LlamaEmbeddingProvider with a generated BERT model', () => {
  let provider: LlamaEmbeddingProvider;
  beforeAll(async () => {
    const modelPath = writeBertGguf(path.join(dir, 'bert-32.gguf'), { embeddingLength: 32, contextLength: 64 });
    provider = await LlamaEmbeddingProvider.open({ modelPath });
  });
  afterAll(() => provider?.close());

  it('records its generation: provider, file hash, dims, preprocessing', () => {
    expect(provider.generation).toEqual({ provider: 'llama', model: expect.stringMatching(/^[0-9a-f]{16}$/), dims: 32, preprocessing: 'llama-v1' });
    expect(provider.dims).toBe(32);
    expect(provider.contextSize).toBe(64);
  });

  it('embeds a batch into unit vectors that are deterministic and differ per text', async () => {
    const texts = ['the meeting about the database backup', 'coffee in the garden this morning', 'the meeting about the database backup'];
    const first = await provider.embedBatch(texts);
    const again = await provider.embedBatch(texts);
    expect(first).toHaveLength(3);
    for (const v of first) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(32);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    expect(Array.from(again[0]!)).toEqual(Array.from(first[0]!));
    expect(Array.from(first[2]!)).toEqual(Array.from(first[0]!));
    expect(cosine(first[0]!, first[1]!)).toBeLessThan(0.999);
    expect(Array.from(await provider.embedQuery(texts[1]!))).toEqual(Array.from(first[1]!));
  });

  it('embeds 50 inputs in bounded batches, in order', async () => {
    const texts = Array.from({ length: 50 }, (_, i) => `${words(5, i)} note ${i}`);
    const vectors = await provider.embedBatch(texts);
    expect(vectors).toHaveLength(50);
    for (const i of [0, 17, 49]) expect(Array.from(vectors[i]!)).toEqual(Array.from((await provider.embedBatch([texts[i]!]))[0]!));
    expect(await provider.embedBatch([])).toEqual([]);
  });

  it('splits a text longer than the context and pools the windows instead of truncating', async () => {
    const firstWindow = words(provider.windowTokens);
    const long = `${firstWindow} ${words(provider.windowTokens * 3, 11)}`;
    const [longVector] = await provider.embedBatch([long]);
    const [firstWindowVector] = await provider.embedBatch([firstWindow]);
    expect(longVector).toHaveLength(32);
    expect(norm(longVector!)).toBeCloseTo(1, 5);
    expect(cosine(longVector!, firstWindowVector!)).toBeLessThan(0.9999);
  });

  it('gives empty and odd inputs a unit vector too', async () => {
    for (const v of await provider.embedBatch(['', '   ', '[CLS] <s> 🦀 ünïcödé', 'x'.repeat(5000)])) {
      expect(norm(v)).toBeCloseTo(1, 5);
    }
  });

  it('gives a model of other dims a different generation', async () => {
    const other = await LlamaEmbeddingProvider.open({
      modelPath: writeBertGguf(path.join(dir, 'bert-64.gguf'), { embeddingLength: 64, contextLength: 128, blockCount: 2, seed: 9 }),
    });
    try {
      expect(other.dims).toBe(64);
      expect((await other.embedQuery('hello world'))).toHaveLength(64);
      expect(generationId(other.generation)).not.toBe(generationId(provider.generation));
    } finally {
      await other.close();
    }
  });
});

describe('bad model files', () => {
  it('rejects a truncated GGUF before loading it', async () => {
    const file = writeTruncatedGguf(path.join(dir, 'truncated.gguf'));
    await expect(LlamaEmbeddingProvider.open({ modelPath: file })).rejects.toThrow(`The model file ${file} is truncated`);
    const cutInHeader = writeTruncatedGguf(path.join(dir, 'truncated-header.gguf'), 0.01);
    await expect(inspectGguf(cutInHeader)).rejects.toThrow(`The model file ${cutInHeader} is truncated`);
  });

  it('rejects random bytes named .gguf', async () => {
    const file = writeRandomBytesGguf(path.join(dir, 'random.gguf'));
    await expect(LlamaEmbeddingProvider.open({ modelPath: file })).rejects.toThrow(`The model file ${file} is not a GGUF model file`);
  });

  it('rejects a chat model: it is not an embedding model', async () => {
    const file = writeLlamaChatGguf(path.join(dir, 'chat.gguf'));
    await expect(LlamaEmbeddingProvider.open({ modelPath: file })).rejects.toThrow(`The model file ${file} is not an embedding model`);
  });

  it('rejects a missing file', async () => {
    const file = path.join(dir, 'missing.gguf');
    await expect(LlamaEmbeddingProvider.open({ modelPath: file })).rejects.toThrow(`The model file ${file} does not exist`);
  });

  it('survives a file that aborts llama.cpp while loading', async () => {
    const file = writeAbortingGguf(path.join(dir, 'aborting.gguf'));
    const opening = LlamaEmbeddingProvider.open({ modelPath: file });
    await expect(opening).rejects.toThrow(`The embedding model ${file} could not be loaded: the file is not a valid GGUF embedding model`);
    await expect(opening).rejects.toThrow(/\(the model process (aborted \(SIGABRT, exit code 134\)|exited with code 134): GGML_ASSERT/);
  });
});

describe('the model process', () => {
  const modelPath = (): string => writeBertGguf(path.join(dir, 'lifecycle.gguf'), { seed: 4 });

  it('ends when the provider closes', async () => {
    const provider = await LlamaEmbeddingProvider.open({ modelPath: modelPath(), modelId: 'test:lifecycle' });
    expect(provider.generation.model).toBe('test:lifecycle');
    const pid = provider.pid!;
    expect(isProcessAlive(pid)).toBe(true);
    await provider.close();
    expect(isProcessAlive(pid)).toBe(false);
    await expect(provider.embedQuery('hello')).rejects.toThrow(/is closed/);
    await provider.close();
  });

  it('answers a query ahead of an indexing batch it arrives behind, and answers a repeated query without the model', async () => {
    const provider = await LlamaEmbeddingProvider.open({ modelPath: modelPath(), batchSize: 64 });
    try {
      // One request of 64 long texts, as background indexing sends them.
      let batchDoneAt = 0;
      const batch = provider.embedBatch(Array.from({ length: 64 }, (_, i) => words(300, i))).then((v) => {
        batchDoneAt = performance.now();
        return v;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const asked = performance.now();
      const query = await provider.embedQuery('where did I put the backup key');
      const answeredAt = performance.now();
      expect(await batch).toHaveLength(64);
      // Before: the query waited for the whole batch.
      expect(batchDoneAt).toBeGreaterThan(answeredAt);
      expect(answeredAt - asked).toBeLessThan((batchDoneAt - asked) / 2);
      expect(Array.from(query)).toEqual(Array.from((await provider.embedBatch(['where did I put the backup key']))[0]!));

      // A repeated query comes from the kept vectors: it is answered even with the model process gone.
      process.kill(provider.pid!, 'SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(Array.from(await provider.embedQuery('where did I put the backup key'))).toEqual(Array.from(query));
      await expect(provider.embedQuery('a question never asked')).rejects.toThrow(/crashed/);
    } finally {
      await provider.close();
    }
  });

  it('turns a crash into errors naming the model file', async () => {
    const provider = await LlamaEmbeddingProvider.open({ modelPath: modelPath() });
    const pending = provider.embedBatch(Array.from({ length: 200 }, (_, i) => words(300, i)));
    process.kill(provider.pid!, 'SIGKILL');
    await expect(pending).rejects.toThrow(`The embedding model ${path.join(dir, 'lifecycle.gguf')} crashed (the model process was killed by SIGKILL)`);
    await expect(provider.embedQuery('after the crash')).rejects.toThrow(/crashed/);
    await provider.close();
  });
});
