/**
 * Line-based chunker: ~400 tokens per chunk with 80 tokens of overlap, every chunk keeping
 * the 1-based inclusive line range it came from. Token counts are estimated (4 Latin
 * characters ≈ 1 token, 1 CJK character ≈ 1 token) so CJK text gets proportionally
 * smaller chunks instead of one enormous one.
 */
export interface Chunk {
  startLine: number;
  endLine: number;
  text: string;
}

export interface ChunkOptions {
  maxTokens: number;
  overlapTokens: number;
}

export const DEFAULT_CHUNKING: ChunkOptions = { maxTokens: 400, overlapTokens: 80 };

/** Recorded in the index; when it changes, every file is re-chunked on the next sync. */
export const CHUNKER_VERSION = 'lines-400-80-v1';

interface Segment {
  line: number;
  text: string;
  tokens: number;
}

export function chunkMarkdown(text: string, options: ChunkOptions = DEFAULT_CHUNKING): Chunk[] {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop(); // trailing newline is not a line
  return chunkLines(lines, options);
}

/**
 * `chunkMarkdown` of text already split into lines (none holding a newline): a caller that has
 * the lines (a transcript's rendered messages) skips joining them only to split them again.
 */
export function chunkLines(lines: readonly string[], options: ChunkOptions = DEFAULT_CHUNKING): Chunk[] {
  const { maxTokens, overlapTokens } = options;
  const segments: Segment[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
    const tokens = estimateTokens(line);
    if (tokens <= maxTokens) segments.push({ line: i + 1, text: line, tokens });
    else for (const piece of splitLongLine(line, maxTokens)) segments.push({ line: i + 1, text: piece, tokens: estimateTokens(piece) });
  }

  const chunks: Chunk[] = [];
  let current: Segment[] = [];
  let currentTokens = 0;
  const emit = (): void => {
    if (current.some((s) => s.text.trim().length > 0)) {
      chunks.push({
        startLine: current[0]!.line,
        endLine: current[current.length - 1]!.line,
        text: current.map((s) => s.text).join('\n'),
      });
    }
  };

  for (const segment of segments) {
    // +1 token per line for the newline that joins it.
    if (current.length > 0 && currentTokens + segment.tokens + 1 > maxTokens) {
      emit();
      const overlap: Segment[] = [];
      let overlapSize = 0;
      for (let j = current.length - 1; j > 0; j--) {
        const s = current[j]!;
        if (overlapSize + s.tokens + 1 > overlapTokens) break;
        overlap.unshift(s);
        overlapSize += s.tokens + 1;
      }
      // The overlap plus the new segment must fit, or the next chunk could never close.
      while (overlap.length > 0 && overlapSize + segment.tokens + 1 > maxTokens) {
        overlapSize -= overlap.shift()!.tokens + 1;
      }
      current = overlap;
      currentTokens = overlapSize;
    }
    current.push(segment);
    currentTokens += segment.tokens + 1;
  }
  emit();
  return chunks;
}

export function estimateTokens(text: string): number {
  let wide = 0;
  let narrow = 0;
  for (let i = 0; i < text.length; i++) {
    if (isWideCodeUnit(text.charCodeAt(i))) wide++;
    else narrow++;
  }
  return wide + Math.ceil(narrow / 4);
}

function isWideCodeUnit(c: number): boolean {
  return (
    (c >= 0x3000 && c <= 0x30ff) || // CJK punctuation and kana
    (c >= 0x3400 && c <= 0x4dbf) || // CJK ext A
    (c >= 0x4e00 && c <= 0x9fff) || // CJK unified
    (c >= 0xac00 && c <= 0xd7af) || // Hangul
    (c >= 0xf900 && c <= 0xfaff) || // CJK compatibility
    (c >= 0xff00 && c <= 0xffef) // full-width forms
  );
}

/** Splits one over-long line into pieces of at most `maxTokens`, preferring whitespace, never splitting a surrogate pair. */
function splitLongLine(line: string, maxTokens: number): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (start < line.length) {
    let end = start;
    let tokens = 0;
    let narrow = 0;
    while (end < line.length) {
      const c = line.charCodeAt(end);
      let nextTokens = tokens;
      if (isWideCodeUnit(c)) nextTokens = tokens + 1;
      else if (narrow % 4 === 0) nextTokens = tokens + 1;
      if (nextTokens > maxTokens) break;
      if (!isWideCodeUnit(c)) narrow++;
      tokens = nextTokens;
      end++;
    }
    if (end >= line.length) {
      pieces.push(line.slice(start));
      break;
    }
    // Prefer to cut after whitespace in the last fifth of the piece.
    const minCut = start + Math.floor((end - start) * 0.8);
    let cut = end;
    for (let k = end; k > minCut; k--) {
      if (line.charCodeAt(k - 1) === 0x20 || line.charCodeAt(k - 1) === 0x09) {
        cut = k;
        break;
      }
    }
    // Never leave a high surrogate at the end of a piece.
    const last = line.charCodeAt(cut - 1);
    if (last >= 0xd800 && last <= 0xdbff && cut - 1 > start) cut--;
    if (cut <= start) cut = Math.min(line.length, start + 1);
    pieces.push(line.slice(start, cut));
    start = cut;
  }
  return pieces;
}
