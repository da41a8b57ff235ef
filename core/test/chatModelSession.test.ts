import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../src/platform/processAlive.js';
import { ChatModelSession, runChatModel, type ModelAnswer } from '../src/platform/chatModel/chatProcess.js';
import { writeLlamaChatGguf, writeTruncatedGguf } from './fixtures/gguf.js';

/** A small schema the generated (nonsense) model answers under: the grammar makes it JSON. */
const SCHEMA = {
  type: 'object',
  properties: { note: { type: 'string', maxLength: 12 } },
  required: ['note'],
  additionalProperties: false,
} as const;

const rawOf = (answer: ModelAnswer): string => (answer.ok ? answer.raw : answer.answered ? answer.reason : `failed: ${answer.reason}`);

describe('chat model session (real node-llama-cpp, generated model)', () => {
  let dir: string;
  let modelPath: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-chat-session-'));
    modelPath = writeLlamaChatGguf(path.join(dir, 'chat.gguf'), { contextLength: 1024 });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('answers several prompts from one process, each as if it were the first, and starts a fresh one after a timeout', async () => {
    const pids: number[] = [];
    const session = new ChatModelSession({ modelPath, onSpawn: (pid) => pids.push(pid) });
    const ask = (prompt: string, timeoutMs = 60_000) => session.ask({ prompt, schema: SCHEMA, timeoutMs, maxTokens: 24 });
    try {
      const first = await ask('Name one tool from: the backup ran with restic.');
      const second = await ask('Name one place from: we met in Tromsø.');
      const again = await ask('Name one tool from: the backup ran with restic.');
      expect(pids).toHaveLength(1);
      expect(first.ok || first.answered).toBe(true);
      expect(second.ok || second.answered).toBe(true);
      // The history is cleared between prompts: the same prompt gets the same answer (temperature 0).
      expect(rawOf(again)).toBe(rawOf(first));
      // And the same answer a process of its own gives.
      expect(rawOf(await runChatModel({ modelPath, prompt: 'Name one tool from: the backup ran with restic.', schema: SCHEMA, timeoutMs: 60_000, maxTokens: 24 }))).toBe(rawOf(first));

      // A prompt that times out ends its process; the next prompt gets a fresh one.
      expect(await ask('Name one tool from: zed is an editor.', 1)).toEqual({ ok: false, reason: 'the chat model did not answer within 1 ms' });
      expect(isProcessAlive(pids[0]!)).toBe(false);
      const after = await ask('Name one place from: we met in Tromsø.');
      expect(rawOf(after)).toBe(rawOf(second));
      expect(pids).toHaveLength(2);
    } finally {
      await session.close();
    }
    for (const pid of pids) expect(isProcessAlive(pid)).toBe(false);
    expect(await session.ask({ prompt: 'late', schema: SCHEMA, timeoutMs: 1_000 })).toEqual({ ok: false, reason: 'the chat model was not asked: its session is closed' });
  });

  it('a model that cannot load fails each prompt with the reason, and leaves no process behind', async () => {
    const pids: number[] = [];
    const broken = writeTruncatedGguf(path.join(dir, 'truncated-chat.gguf'));
    const session = new ChatModelSession({ modelPath: broken, onSpawn: (pid) => pids.push(pid) });
    try {
      const answer = await session.ask({ prompt: 'hello', schema: SCHEMA, timeoutMs: 60_000 });
      expect(answer).toMatchObject({ ok: false, reason: expect.stringMatching(/^the chat model (could not answer|process)/) });
      expect(await session.ask({ prompt: 'hello again', schema: SCHEMA, timeoutMs: 60_000 })).toMatchObject({ ok: false });
    } finally {
      await session.close();
    }
    expect(pids.length).toBeGreaterThanOrEqual(1);
    for (const pid of pids) expect(isProcessAlive(pid)).toBe(false);
  });

  it('stops the prompt in flight when the caller aborts, and answers nothing more', async () => {
    const stop = new AbortController();
    const pids: number[] = [];
    const session = new ChatModelSession({ modelPath, signal: stop.signal, onSpawn: (pid) => pids.push(pid) });
    const pending = session.ask({ prompt: 'Name one tool from: the backup ran with restic.', schema: SCHEMA, timeoutMs: 60_000 });
    setTimeout(() => stop.abort(), 50);
    expect(await pending).toEqual({ ok: false, reason: 'the chat model was stopped: the engine is stopping' });
    expect(await session.ask({ prompt: 'next', schema: SCHEMA, timeoutMs: 1_000 })).toEqual({ ok: false, reason: 'the chat model was not asked: the engine is stopping' });
    await session.close();
    for (const pid of pids) expect(isProcessAlive(pid)).toBe(false);
  });
});
