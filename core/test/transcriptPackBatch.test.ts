import { describe, expect, it } from 'vitest';
import { packChunks } from '../src/index/packedChunks.js';
import { chunkTranscriptLines, packTranscriptBatch, renderMessages } from '../src/sessions/transcriptDocument.js';
import type { TranscriptMessage } from '../src/sessions/types.js';

/*
 * A reader thread packs each batch in one pass (packTranscriptBatch). It must give the bytes that
 * rendering, chunking and packing step by step give: the same chunks (lines, text, least trusted
 * origin, first time) and the same line map.
 */
const decoder = new TextDecoder();

function stepByStep(messages: TranscriptMessage[], firstLine: number) {
  const lines = renderMessages(messages, firstLine);
  const chunks = packChunks(chunkTranscriptLines(lines, 'subagent'));
  const lineMap = JSON.stringify(lines.map((l) => [l.line, l.sourceLine, l.role, l.origin, l.timestamp]));
  return { chunks: { json: decoder.decode(chunks.json), count: chunks.count, grams: chunks.grams }, lineMap, lineCount: lines.length };
}

function packed(messages: TranscriptMessage[], firstLine: number) {
  const out = packTranscriptBatch(messages, firstLine, 'subagent');
  return { chunks: { json: decoder.decode(out.chunks.json), count: out.chunks.count, grams: out.chunks.grams }, lineMap: decoder.decode(out.linesJson), lineCount: out.lineCount };
}

const ORIGINS = ['owner', 'agent', 'untrusted', 'system'] as const;

function messagesOf(n: number): TranscriptMessage[] {
  const out: TranscriptMessage[] = [];
  for (let i = 0; i < n; i++) {
    const lines = 1 + (i % 5);
    const text = Array.from({ length: lines }, (_, k) => (k === 2 ? '' : `turn ${i} line ${k} ${'word '.repeat((i * 7 + k * 13) % 90)}“quoted” \\ 再処理ジョブ`.trim())).join('\n');
    out.push({
      role: i % 2 === 0 ? 'user' : 'assistant',
      text,
      origin: ORIGINS[(i * 3) % 4]!,
      sourceLine: 10 + i * 2,
      // Some messages carry no time: a chunk takes the first time among its lines.
      timestamp: i % 3 === 1 ? null : new Date(Date.UTC(2026, 2, 1) + i * 60_000).toISOString(),
    });
  }
  return out;
}

describe('packTranscriptBatch', () => {
  it('packs the chunks and line map that rendering and chunking step by step give', () => {
    for (const [n, firstLine] of [[1, 1], [7, 1], [300, 42], [900, 5_001]] as const) {
      const messages = messagesOf(n);
      const expected = stepByStep(messages, firstLine);
      expect(expected.chunks.count).toBeGreaterThan(0);
      expect(packed(messages, firstLine)).toEqual(expected);
    }
  });

  it('treats a last empty line as joining and splitting the lines would (no line of its own in a chunk)', () => {
    const messages: TranscriptMessage[] = [
      { role: 'user', text: 'first', origin: 'owner', sourceLine: 1, timestamp: null },
      { role: 'assistant', text: 'ends with a newline\n', origin: 'untrusted', sourceLine: 2, timestamp: '2026-03-01T10:00:00.000Z' },
    ];
    const out = packed(messages, 3);
    expect(out).toEqual(stepByStep(messages, 3));
    expect(out.lineCount).toBe(3);
  });

  it('packs an empty batch as empty arrays', () => {
    expect(packed([], 1)).toEqual({ chunks: { json: '[]', count: 0, grams: [] }, lineMap: '[]', lineCount: 0 });
  });
});
