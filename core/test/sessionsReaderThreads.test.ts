import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

const MB = 1024 * 1024;
let ws: TempWorkspace;
let service: MemoryService | null = null;

afterEach(async () => {
  await service?.close();
  service = null;
  ws?.cleanup();
});

/** One Claude Code turn: a prompt, a reply with a tool call, a large tool result (not indexed), a follow-up. */
function turn(n: number, word: string): string {
  const entry = (type: 'user' | 'assistant', content: unknown) =>
    JSON.stringify({ type, sessionId: 'feedface-0000-4000-8000-000000000001', cwd: '/home/dana/src/ledgerd', timestamp: new Date(Date.UTC(2026, 2, 1) + n * 1000).toISOString(), message: { role: type, content } });
  return [
    entry('user', `Turn ${n}: why does the ${word} cutoff drift by a day?`),
    entry('assistant', [{ type: 'text', text: `Reading the ${word} code (${n}).` }, { type: 'tool_use', id: `t${n}`, name: 'Read', input: { file_path: '/src/cutoff.go' } }]),
    entry('user', [{ type: 'tool_result', tool_use_id: `t${n}`, content: `func cutoff(t time.Time) time.Time { return t.Truncate(24 * time.Hour) } // ${n}\n`.repeat(60) }]),
    entry('assistant', [{ type: 'text', text: `Truncate works in UTC, so the ${word} midnight lands on the previous day (${n}).` }]),
  ].join('\n') + '\n';
}

/** Writes a transcript of at least `bytes`, streaming (the test process never holds it whole); the last turn's word is `lastWord`. */
function writeTranscript(file: string, bytes: number, lastWord: string): number {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, 'w');
  let written = 0;
  let turns = 0;
  try {
    while (written < bytes) {
      let block = '';
      for (let i = 0; i < 200; i++) block += turn(turns++, 'statement');
      written += fs.writeSync(fd, block);
    }
    written += fs.writeSync(fd, turn(turns++, lastWord));
  } finally {
    fs.closeSync(fd);
  }
  return turns;
}

describe('transcripts on reader threads', () => {
  it('ingests a transcript larger than the memory it may use, with small ones beside it, and finds its last line', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    const home = path.join(ws.dataDir, 'claude-home');
    const project = path.join(home, 'projects', '-home-dana-src-ledgerd');
    // Large enough that holding it whole would show: the readers' fixed cost (threads, SQLite cache) is ~170 MB.
    const big = 320 * MB;
    const bigTurns = writeTranscript(path.join(project, 'feedface-0000-4000-8000-000000000001.jsonl'), big, 'zanzibarquorum');
    for (let i = 2; i <= 5; i++) writeTranscript(path.join(project, `feedface-0000-4000-8000-00000000000${i}.jsonl`), 64 * 1024, `smallword${i}x`);
    // An old file (no writer is still appending): its last line counts.
    for (const f of fs.readdirSync(project)) fs.utimesSync(path.join(project, f), new Date(Date.UTC(2026, 0, 1)), new Date(Date.UTC(2026, 0, 1)));

    service = openService(ws);
    await service.sync(false);
    const rssBefore = process.memoryUsage.rss();
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50);
    let report;
    try {
      report = await service.invoke('sessions.ingest', { homes: { 'claude-code': home } });
    } finally {
      clearInterval(sampler);
    }
    expect(report.failed).toBe(0);
    expect(report.added).toBe(5);
    // Three text messages per turn (the tool result is not indexed).
    expect(report.messages).toBeGreaterThanOrEqual(bigTurns * 3);
    // Streamed in batches on the reader threads: the process (threads included) never held the file whole.
    expect(peak - rssBefore).toBeLessThan(256 * MB);

    const hits = async (query: string) => (await service!.invoke('memory.search', { query, limit: 5, sources: ['sessions'] })).results;
    expect((await hits('zanzibarquorum'))[0]?.snippet).toContain('zanzibarquorum');
    for (let i = 2; i <= 5; i++) expect((await hits(`smallword${i}x`)).length).toBeGreaterThan(0);

    // Unchanged files cost a stat on the next run; nothing is read again.
    const again = await service.invoke('sessions.ingest', { homes: { 'claude-code': home } });
    expect(again).toMatchObject({ added: 0, appended: 0, failed: 0, messages: 0 });
  }, 600_000);
});
