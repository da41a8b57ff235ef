import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectTranscript, isTranscriptSkipped, readTranscript } from '../src/sessions/readTranscript.js';
import type { TranscriptMessage, TranscriptReadResult, TranscriptResumeState } from '../src/sessions/types.js';

let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-sessions-inc-')));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const SESSION = '5b1e0c2a-0000-4e1b-9a3c-2d6f0e4b7a91';
let uuid = 0;
function line(type: 'user' | 'assistant', content: unknown, ts = '2026-03-11T09:00:00.000Z'): string {
  uuid += 1;
  const message = type === 'user' ? { role: 'user', content } : { role: 'assistant', model: 'claude-sonnet-4-6', content };
  return JSON.stringify({ parentUuid: null, isSidechain: false, cwd: '/w', sessionId: SESSION, type, message, uuid: `u${uuid}`, timestamp: ts }) + '\n';
}
const say = (text: string) => line('user', text);
const reply = (text: string) => line('assistant', [{ type: 'text', text }]);
const call = (id: string, name: string, input: unknown) => line('assistant', [{ type: 'tool_use', id, name, input }]);
const result = (id: string, content: string) => line('user', [{ type: 'tool_result', tool_use_id: id, content }]);

async function readFrom(file: string, resume?: TranscriptResumeState): Promise<{ messages: TranscriptMessage[]; result: TranscriptReadResult }> {
  const { messages, outcome } = await collectTranscript(file, { resume });
  if (isTranscriptSkipped(outcome)) throw new Error(`skipped: ${outcome.skipped}`);
  // The state is stored as JSON between reads.
  return { messages, result: { ...outcome, resume: JSON.parse(JSON.stringify(outcome.resume)) as TranscriptResumeState } };
}

describe('incremental transcript reads', () => {
  it('yields only appended messages, nothing for an unchanged file, and carries taint across the boundary', async () => {
    const file = path.join(dir, `${SESSION}.jsonl`);
    fs.writeFileSync(file, say('What changed in the tax rules?') + call('t1', 'WebSearch', { query: 'tax rules 2026' }));
    const first = await readFrom(file);
    expect(first.messages.map((m) => [m.sourceLine, m.origin, m.text])).toEqual([[1, 'owner', 'What changed in the tax rules?']]);
    // The web call is waiting for its result when the first read stops.
    expect(first.result.resume.turn).toEqual({ tainted: false, pendingCalls: { t1: 'network' } });

    const unchanged = await readFrom(file, first.result.resume);
    expect(unchanged.messages).toEqual([]);
    expect(unchanged.result.stats.lines).toBe(0);
    expect(unchanged.result.resume).toEqual(first.result.resume);

    fs.appendFileSync(file, result('t1', 'Rule 12 now applies from April.') + reply('Rule 12 now applies from April.'));
    const second = await readFrom(file, unchanged.result.resume);
    expect(second.messages.map((m) => [m.sourceLine, m.origin, m.text])).toEqual([[4, 'untrusted', 'Rule 12 now applies from April.']]);
    expect(second.result.resume.turn.tainted).toBe(true);
    expect(second.result.stats).toMatchObject({ lines: 2, messages: 1, toolResults: 1 });

    // Still the same turn across a second boundary.
    fs.appendFileSync(file, reply('Shall I add it to your notes?'));
    const third = await readFrom(file, second.result.resume);
    expect(third.messages.map((m) => m.origin)).toEqual(['untrusted']);

    // A new real user message starts a clean turn.
    fs.appendFileSync(file, say('No thanks. Remind me to file by May.') + reply('Noted: file by May.'));
    const fourth = await readFrom(file, third.result.resume);
    expect(fourth.messages.map((m) => [m.sourceLine, m.origin])).toEqual([
      [6, 'owner'],
      [7, 'agent'],
    ]);
    expect(fourth.result.restarted).toBe(false);

    // One read of the whole file agrees with the four incremental ones.
    const whole = await readFrom(file);
    expect(whole.messages).toEqual([...first.messages, ...second.messages, ...third.messages, ...fourth.messages]);
    expect(whole.result.resume.offset).toBe(fourth.result.resume.offset);
  });

  it('picks up a line that was half written at the first read once it is complete', async () => {
    const file = path.join(dir, `${SESSION}.jsonl`);
    const next = say('second message');
    fs.writeFileSync(file, say('first message') + next.slice(0, 20));
    const first = await readFrom(file);
    expect(first.messages.map((m) => m.text)).toEqual(['first message']);
    fs.appendFileSync(file, next.slice(20));
    const second = await readFrom(file, first.result.resume);
    expect(second.messages.map((m) => [m.sourceLine, m.text])).toEqual([[2, 'second message']]);
  });

  it('starts over when the file was truncated or rewritten under the saved state', async () => {
    const file = path.join(dir, `${SESSION}.jsonl`);
    fs.writeFileSync(file, say('original one') + reply('original reply'));
    const first = await readFrom(file);
    fs.writeFileSync(file, say('replaced'));
    const truncated = await readFrom(file, first.result.resume);
    expect(truncated.result.restarted).toBe(true);
    expect(truncated.messages.map((m) => [m.sourceLine, m.text])).toEqual([[1, 'replaced']]);

    // Same length or longer, different start: also a different file.
    fs.writeFileSync(file, say('original two') + reply('original reply') + reply('more'));
    const rewritten = await readFrom(file, first.result.resume);
    expect(rewritten.result.restarted).toBe(true);
    expect(rewritten.messages.map((m) => m.text)).toEqual(['original two', 'original reply', 'more']);

    // A state for another format is not applied either, nor a state saved before formats had names that names another tool.
    const other = await collectTranscript(file, { resume: { ...first.result.resume, parser: 'codex-rollout' }, format: 'claude-code-jsonl' });
    expect(isTranscriptSkipped(other.outcome) ? null : other.outcome.restarted).toBe(true);
    const { parser: _parser, ...legacy } = first.result.resume;
    const legacyOther = await collectTranscript(file, { resume: { ...legacy, tool: 'codex' }, format: 'claude-code-jsonl' });
    expect(isTranscriptSkipped(legacyOther.outcome) ? null : legacyOther.outcome.restarted).toBe(true);
    // A state saved before formats had names, by this tool, still resumes where it stopped.
    const { parser: _same, ...legacySame } = rewritten.result.resume;
    const resumed = await collectTranscript(file, { resume: { ...legacySame, tool: 'claude-code' }, format: 'claude-code-jsonl' });
    expect(isTranscriptSkipped(resumed.outcome) ? null : resumed.outcome.restarted).toBe(false);
    expect(resumed.messages).toEqual([]);
  });

  it('can be stopped early by the caller; a later read still gives everything', async () => {
    const file = path.join(dir, `${SESSION}.jsonl`);
    fs.writeFileSync(file, say('a question') + reply('an answer'));
    const reader = readTranscript(file);
    const firstMessage = await reader.next();
    expect(firstMessage.done).toBe(false);
    await reader.return({ skipped: 'missing', size: 0 });
    const full = await readFrom(file);
    expect(full.messages).toHaveLength(2);
  });
});
