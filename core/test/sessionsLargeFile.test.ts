import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTranscriptSkipped, readTranscript } from '../src/sessions/readTranscript.js';
import type { TranscriptReadOutcome } from '../src/sessions/types.js';

const TARGET_BYTES = 100 * 1024 * 1024;
const MB = 1024 * 1024;
let dir: string;
let file: string;

/** About 1 MB of a realistic Claude Code session: prompts, replies, tool calls, big tool results, secrets. */
function sessionBlock(block: number): string {
  const lines: string[] = [];
  const entry = (type: string, content: unknown, i: number) =>
    JSON.stringify({
      parentUuid: null,
      isSidechain: false,
      userType: 'external',
      cwd: '/home/dana/src/ledgerd',
      sessionId: '0c0ffee0-0000-4000-8000-000000000100',
      version: '2.1.80',
      type,
      message: type === 'user' ? { role: 'user', content } : { role: 'assistant', model: 'claude-sonnet-4-6', content },
      uuid: `b${block}-${i}`,
      timestamp: new Date(Date.UTC(2026, 2, 1) + block * 60_000 + i * 1000).toISOString(),
    });
  let bytes = 0;
  for (let i = 0; bytes < MB; i += 1) {
    const n = `${block}.${i}`;
    const turn = [
      entry('user', `Question ${n}: why   does the   statement cutoff drift by a day in Europe/Berlin?\n\n\n\n\nIt started after release ${n}.`, i),
      entry('assistant', [{ type: 'text', text: `Checking the cutoff code for ${n}.` }, { type: 'tool_use', id: `r${n}`, name: 'Read', input: { file_path: '/src/cutoff.go' } }], i),
      entry('user', [{ type: 'tool_result', tool_use_id: `r${n}`, content: `func cutoff(t time.Time) time.Time {\n\treturn t.Truncate(24 * time.Hour) // ${n}\n}\n`.repeat(40) }], i),
      entry('assistant', [{ type: 'text', text: `Truncate works in UTC, so Berlin midnight lands on the previous day (${n}). Use time.Date in the location instead. Token ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5 must be rotated.` }], i),
      entry('assistant', [{ type: 'tool_use', id: `w${n}`, name: 'WebFetch', input: { url: 'https://pkg.go.dev/time' } }], i),
      entry('user', [{ type: 'tool_result', tool_use_id: `w${n}`, content: 'Truncate operates on the absolute time since the zero time. '.repeat(30) }], i),
      entry('assistant', [{ type: 'text', text: `The docs confirm it (${n}).` }], i),
    ];
    for (const line of turn) {
      lines.push(line);
      bytes += line.length + 1;
    }
  }
  return lines.join('\n') + '\n';
}

beforeAll(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-sessions-large-')));
  file = path.join(dir, '0c0ffee0-0000-4000-8000-000000000100.jsonl');
  const fd = fs.openSync(file, 'w');
  try {
    let written = 0;
    for (let block = 0; written < TARGET_BYTES; block += 1) written += fs.writeSync(fd, sessionBlock(block));
  } finally {
    fs.closeSync(fd);
  }
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a 100 MB transcript', () => {
  it('streams with bounded memory and reports its throughput', async () => {
    const size = fs.statSync(file).size;
    expect(size).toBeGreaterThanOrEqual(TARGET_BYTES);
    const rssBefore = process.memoryUsage.rss();
    let peakRss = rssBefore;
    let messages = 0;
    let untrusted = 0;
    const started = performance.now();
    const reader = readTranscript(file, { format: 'claude-code-jsonl' });
    let outcome: TranscriptReadOutcome;
    for (;;) {
      const next = await reader.next();
      if (next.done) {
        outcome = next.value;
        break;
      }
      messages += 1;
      if (next.value.origin === 'untrusted') untrusted += 1;
      if (messages % 5000 === 0) peakRss = Math.max(peakRss, process.memoryUsage.rss());
    }
    const seconds = (performance.now() - started) / 1000;
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    if (isTranscriptSkipped(outcome)) throw new Error(`skipped: ${outcome.skipped}`);

    const throughput = size / MB / seconds;
    const growthMb = (peakRss - rssBefore) / MB;
    console.log(`sessions: ${(size / MB).toFixed(1)} MB, ${outcome.stats.lines} lines, ${messages} messages in ${seconds.toFixed(2)} s = ${throughput.toFixed(1)} MB/s; peak RSS growth ${growthMb.toFixed(1)} MB`);

    expect(growthMb).toBeLessThan(100);
    expect(outcome.stats.malformedLines).toBe(0);
    expect(outcome.stats.messages).toBe(messages);
    expect(outcome.stats.redactions).toBe(messages / 4);
    // One of the four messages per turn follows the WebFetch result.
    expect(untrusted).toBe(messages / 4);
    expect(outcome.resume.offset).toBe(size);

    // Re-reading the unchanged file from its resume state costs nothing.
    const again = readTranscript(file, { format: 'claude-code-jsonl', resume: outcome.resume });
    const rerun = await again.next();
    expect(rerun.done).toBe(true);
    if (!rerun.done || isTranscriptSkipped(rerun.value)) throw new Error('the unchanged file was read again');
    // Nothing was read: the resume state starts at the end of the file.
    expect(rerun.value.stats.lines).toBe(0);
    expect(rerun.value.resume.offset).toBe(size);
  }, 60_000);
});
