import { chunkMarkdown } from '../index/chunker.js';
import type { IndexedChunk } from '../index/indexStore.js';
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
