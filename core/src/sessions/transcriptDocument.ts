import { chunkLines, chunkMarkdown } from '../index/chunker.js';
import type { IndexedChunk } from '../index/indexStore.js';
import { packChunks, type PackedChunks } from '../index/packedChunks.js';
import { leastTrusted, type OriginClass, type SessionKind } from '../contract/index.js';
import type { TranscriptMessage } from './types.js';

export interface DocumentLine {
  /** 1-based line of the indexed transcript text. */
  line: number;
  text: string;
  sourceLine: number;
  role: 'user' | 'assistant';
  origin: OriginClass;
  timestamp: string | null;
}

/**
 * A transcript as indexed text: one message per paragraph, its first line prefixed with time
 * and role (`[2026-03-02 14:05] user: …`), every line mapped back to its JSONL source line.
 */
export function renderMessages(messages: readonly TranscriptMessage[], firstLine: number): DocumentLine[] {
  const lines: DocumentLine[] = [];
  let line = firstLine;
  for (const m of messages) {
    const stamp = m.timestamp ? `[${m.timestamp.slice(0, 16).replace('T', ' ')}] ` : '';
    m.text.split('\n').forEach((text, i) => {
      lines.push({ line: line++, text: i === 0 ? `${stamp}${m.role}: ${text}` : text, sourceLine: m.sourceLine, role: m.role, origin: m.origin, timestamp: m.timestamp });
    });
  }
  return lines;
}

/** Chunks rendered lines; each chunk takes the least trusted origin of its lines. */
export function chunkTranscriptLines(lines: readonly DocumentLine[], sessionKind: SessionKind): IndexedChunk[] {
  if (lines.length === 0) return [];
  const offset = lines[0]!.line - 1;
  return chunkMarkdown(lines.map((l) => l.text).join('\n')).map((c) => {
    const covered = lines.slice(c.startLine - 1, c.endLine);
    return {
      startLine: c.startLine + offset,
      endLine: c.endLine + offset,
      text: c.text,
      origin: leastTrusted(covered.map((l) => l.origin), 'system'),
      sessionKind,
      observedAt: covered.find((l) => l.timestamp)?.timestamp ?? null,
    };
  });
}

/** A batch of messages as the engine thread writes it: the line map and the chunks, each packed as JSON (see TranscriptBatch). */
export interface PackedTranscriptLines {
  /** JSON array of `[line, sourceLine, role, origin, timestamp]` per rendered line, as UTF-8. */
  linesJson: Uint8Array;
  lineCount: number;
  chunks: PackedChunks;
}

const utf8 = new TextEncoder();

/**
 * `renderMessages`, `chunkTranscriptLines`, `packChunks` and the line map in one pass, with the
 * same bytes out: a reader thread builds no object per rendered line (a line of a message shares
 * its source line, role, origin and time) and never joins the lines only to split them again.
 */
export function packTranscriptBatch(messages: readonly TranscriptMessage[], firstLine: number, sessionKind: SessionKind): PackedTranscriptLines {
  const texts: string[] = [];
  // Per rendered line, the message it belongs to.
  const messageOf: number[] = [];
  const lineMap: string[] = [];
  let line = firstLine;
  for (let k = 0; k < messages.length; k++) {
    const m = messages[k]!;
    const stamp = m.timestamp ? `[${m.timestamp.slice(0, 16).replace('T', ' ')}] ` : '';
    const rest = `,${JSON.stringify(m.sourceLine)},${JSON.stringify(m.role)},${JSON.stringify(m.origin)},${JSON.stringify(m.timestamp ?? null)}]`;
    const parts = m.text.split('\n');
    for (let i = 0; i < parts.length; i++) {
      texts.push(i === 0 ? `${stamp}${m.role}: ${parts[i]!}` : parts[i]!);
      messageOf.push(k);
      lineMap.push(`[${line++}${rest}`);
    }
  }
  const chunks: IndexedChunk[] = [];
  if (texts.length > 0) {
    // What joining the lines and splitting them again would give: a last empty line is no line.
    const chunked = texts[texts.length - 1] === '' ? texts.slice(0, -1) : texts;
    for (const c of chunkLines(chunked)) {
      const first = messageOf[c.startLine - 1]!;
      const last = messageOf[c.endLine - 1]!;
      const covered = messages.slice(first, last + 1);
      chunks.push({
        startLine: c.startLine + firstLine - 1,
        endLine: c.endLine + firstLine - 1,
        text: c.text,
        origin: leastTrusted(covered.map((m) => m.origin), 'system'),
        sessionKind,
        observedAt: covered.find((m) => m.timestamp)?.timestamp ?? null,
      });
    }
  }
  return { linesJson: utf8.encode(`[${lineMap.join(',')}]`), lineCount: texts.length, chunks: packChunks(chunks) };
}
