import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectTranscript, isTranscriptSkipped } from '../src/sessions/readTranscript.js';
import type { TranscriptReadOutcome, TranscriptReadResult } from '../src/sessions/types.js';

let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-sessions-bad-')));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const header = JSON.stringify({ type: 'session', version: 3, id: 'bad-input', timestamp: '2026-03-10T08:00:00.000Z', cwd: '/w' });
const user = (text: string, ts?: string) =>
  JSON.stringify({ type: 'message', id: 'm', parentId: null, ...(ts ? { timestamp: ts } : {}), message: { role: 'user', content: [{ type: 'text', text }] } });
const assistant = (text: string) => JSON.stringify({ type: 'message', id: 'a', parentId: 'm', message: { role: 'assistant', content: [{ type: 'text', text }] } });

function expectRead(outcome: TranscriptReadOutcome): TranscriptReadResult {
  if (isTranscriptSkipped(outcome)) throw new Error(`skipped: ${outcome.skipped}`);
  return outcome;
}

describe('bad transcript input', () => {
  it('counts malformed JSON, non-object lines and unknown types, and keeps going', async () => {
    const file = path.join(dir, 'mixed.jsonl');
    const lines = [header, '{"type": "message", "message": {', '[1, 2, 3]', '', '   ', JSON.stringify({ type: 'hologram', id: 'h' }), user('still here', '2026-03-10T08:01:00Z'), 'not json at all', assistant('and so am I')];
    fs.writeFileSync(file, lines.join('\n') + '\n');
    const { messages, outcome } = await collectTranscript(file);
    const result = expectRead(outcome);
    expect(messages.map((m) => [m.sourceLine, m.text, m.timestamp])).toEqual([
      [7, 'still here', '2026-03-10T08:01:00.000Z'],
      // No timestamp on the line or the message.
      [9, 'and so am I', null],
    ]);
    expect(result.stats).toMatchObject({ lines: 9, malformedLines: 3, unknownLines: 1, messages: 2 });
    // Each is named by its line, for the ingest report.
    expect(result.malformed).toEqual([
      { line: 2, reason: 'not valid JSON' },
      { line: 3, reason: 'not a JSON object' },
      { line: 8, reason: 'not valid JSON' },
    ]);
  });

  it('skips lines that are not valid UTF-8 and reads the valid ones around them', async () => {
    const file = path.join(dir, 'utf8.jsonl');
    const bad = Buffer.concat([Buffer.from('{"type":"message","message":{"role":"user","content":"caf'), Buffer.from([0xc3, 0x28]), Buffer.from('"}}\n')]);
    const overlong = Buffer.from([0xc0, 0xaf, 0x0a]);
    fs.writeFileSync(file, Buffer.concat([Buffer.from(header + '\n'), bad, overlong, Buffer.from(user('café ☕ 日本語') + '\n')]));
    const { messages, outcome } = await collectTranscript(file);
    expect(messages.map((m) => m.text)).toEqual(['café ☕ 日本語']);
    expect(expectRead(outcome).stats).toMatchObject({ lines: 4, malformedLines: 2 });
    expect(expectRead(outcome).malformed).toEqual([
      { line: 2, reason: 'not valid UTF-8' },
      { line: 3, reason: 'not valid UTF-8' },
    ]);
  });

  it('does not consume a truncated last line unless the read is final', async () => {
    const file = path.join(dir, 'truncated.jsonl');
    const partial = user('half written').slice(0, 30);
    fs.writeFileSync(file, `${header}\n${user('complete')}\n${partial}`);
    const first = await collectTranscript(file);
    const result = expectRead(first.outcome);
    expect(first.messages.map((m) => m.text)).toEqual(['complete']);
    expect(result.stats.malformedLines).toBe(0);
    expect(result.resume.offset).toBe(fs.statSync(file).size - partial.length);
    expect(result.resume.nextLine).toBe(3);
    // Final: the writer is gone, the broken tail is read and counted as malformed.
    const final = await collectTranscript(file, { resume: result.resume, final: true });
    expect(final.messages).toEqual([]);
    expect(expectRead(final.outcome).stats).toMatchObject({ lines: 1, malformedLines: 1 });
    expect(expectRead(final.outcome).resume.offset).toBe(fs.statSync(file).size);
  });

  it('reads a complete last line without a newline only when final', async () => {
    const file = path.join(dir, 'no-newline.jsonl');
    fs.writeFileSync(file, `${header}\n${user('last words')}`);
    expect((await collectTranscript(file)).messages).toEqual([]);
    const final = await collectTranscript(file, { final: true });
    expect(final.messages.map((m) => [m.sourceLine, m.text])).toEqual([[2, 'last words']]);
  });

  it('skips a transcript over the size cap without reading it', async () => {
    const file = path.join(dir, 'big.jsonl');
    fs.writeFileSync(file, `${header}\n${user('x'.repeat(5000))}\n`);
    const size = fs.statSync(file).size;
    const { messages, outcome } = await collectTranscript(file, { maxBytes: 1024 });
    expect(messages).toEqual([]);
    expect(outcome).toEqual({ skipped: 'too large', size });
  });

  it('skips a line over the line limit without buffering it and reads the next one', async () => {
    const file = path.join(dir, 'long-line.jsonl');
    fs.writeFileSync(file, `${header}\n${user('y'.repeat(3 * 1024 * 1024))}\n${user('after the long line')}\n`);
    const { messages, outcome } = await collectTranscript(file, { maxLineBytes: 64 * 1024 });
    expect(messages.map((m) => [m.sourceLine, m.text])).toEqual([[3, 'after the long line']]);
    expect(expectRead(outcome).stats).toMatchObject({ lines: 3, malformedLines: 1 });
    expect(expectRead(outcome).malformed).toEqual([{ line: 2, reason: 'longer than the line limit' }]);
  });

  it('reports a vanished file, a directory and an unrecognised format instead of throwing', async () => {
    expect((await collectTranscript(path.join(dir, 'gone.jsonl'))).outcome).toEqual({ skipped: 'missing', size: 0 });
    expect((await collectTranscript(path.join(dir, 'gone', 'deeper.jsonl'))).outcome).toEqual({ skipped: 'missing', size: 0 });
    expect((await collectTranscript(dir)).outcome).toEqual({ skipped: 'missing', size: 0 });
    const other = path.join(dir, 'other.jsonl');
    fs.writeFileSync(other, '{"level":"info","msg":"a log, not a transcript"}\n');
    expect((await collectTranscript(other)).outcome).toEqual({ skipped: 'unrecognised format', size: fs.statSync(other).size });
    const empty = path.join(dir, 'empty.jsonl');
    fs.writeFileSync(empty, '');
    expect((await collectTranscript(empty)).outcome).toEqual({ skipped: 'unrecognised format', size: 0 });
  });

  it('reads a symlinked transcript and leaves both the link and the target as they were', async () => {
    const target = path.join(dir, 'target.jsonl');
    fs.writeFileSync(target, `${header}\n${user('through a link')}\n`);
    const link = path.join(dir, 'link.jsonl');
    fs.symlinkSync(target, link);
    const before = fs.readFileSync(target);
    const { messages } = await collectTranscript(link);
    expect(messages.map((m) => m.text)).toEqual(['through a link']);
    expect(fs.readFileSync(target)).toEqual(before);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it('handles CRLF line endings and a byte-order mark', async () => {
    const file = path.join(dir, 'crlf.jsonl');
    fs.writeFileSync(file, `\ufeff${header}\r\n${user('windows line')}\r\n`);
    const { messages, outcome } = await collectTranscript(file);
    expect(messages.map((m) => m.text)).toEqual(['windows line']);
    expect(expectRead(outcome).stats.malformedLines).toBe(0);
  });
});
