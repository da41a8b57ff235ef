import { describe, expect, it } from 'vitest';
import { chunkMarkdown, estimateTokens } from '../src/index/chunker.js';

describe('chunkMarkdown', () => {
  it('keeps 1-based inclusive line ranges that match the text', () => {
    const lines = Array.from({ length: 300 }, (_, i) => `- line ${i + 1}: ${'word '.repeat(10)}`);
    const text = lines.join('\n') + '\n';
    const chunks = chunkMarkdown(text);
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) {
      expect(c.text).toBe(lines.slice(c.startLine - 1, c.endLine).join('\n'));
      expect(estimateTokens(c.text)).toBeLessThanOrEqual(400 + (c.endLine - c.startLine + 1));
    }
    expect(chunks[0]!.startLine).toBe(1);
    expect(chunks[chunks.length - 1]!.endLine).toBe(300);
  });

  it('overlaps consecutive chunks by about 80 tokens', () => {
    const text = Array.from({ length: 200 }, (_, i) => `sentence number ${i} with some words`).join('\n');
    const chunks = chunkMarkdown(text);
    for (let i = 1; i < chunks.length; i++) {
      const overlapLines = chunks[i - 1]!.endLine - chunks[i]!.startLine + 1;
      expect(overlapLines).toBeGreaterThan(0);
      const overlapText = text.split('\n').slice(chunks[i]!.startLine - 1, chunks[i - 1]!.endLine).join('\n');
      expect(estimateTokens(overlapText)).toBeLessThanOrEqual(80 + overlapLines);
    }
  });

  it('splits a very long line into pieces that keep its line number', () => {
    const long = 'alpha '.repeat(2000);
    const chunks = chunkMarkdown(`first\n${long}\nlast`);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.every((c) => c.text.length <= 1700)).toBe(true);
    expect(chunks.some((c) => c.startLine === 2 && c.endLine === 2)).toBe(true);
    expect(chunks[chunks.length - 1]!.endLine).toBe(3);
  });

  it('gives CJK text proportionally smaller chunks and never splits a surrogate pair', () => {
    const cjk = '記憶は大切です。'.repeat(300);
    const chunks = chunkMarkdown(cjk);
    expect(chunks.length).toBeGreaterThan(4);
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(400);
    const emoji = '😀'.repeat(3000);
    for (const c of chunkMarkdown(emoji)) {
      expect(c.text).not.toMatch(/^[\uDC00-\uDFFF]/);
      expect(c.text).not.toMatch(/[\uD800-\uDBFF]$/);
    }
  });

  it('returns nothing for empty or blank files and handles CRLF', () => {
    expect(chunkMarkdown('')).toEqual([]);
    expect(chunkMarkdown('\n\n  \n')).toEqual([]);
    const [c] = chunkMarkdown('a\r\nb\r\n');
    expect(c).toEqual({ startLine: 1, endLine: 2, text: 'a\nb' });
  });
});
