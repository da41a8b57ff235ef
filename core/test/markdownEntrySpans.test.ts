import { describe, expect, it } from 'vitest';
import { markdownEntrySpans, parseMarkdownEntries } from '../src/workspace/markdownEntries.js';

// A note written for this test: bullets with continuation lines, paragraphs, markers, fences and CRLF.
const NOTE = [
  '# Week notes',
  '',
  '<!-- openclaw-memory-promotion:abc -->',
  '- [ ] renew the certificate <!-- importance: 0.8 -->',
  '  before the end of the month',
  '- Priya prefers short standups [score=0.4]',
  'A paragraph line is its own entry.',
  'And so is this one.',
  '',
  '```',
  '- not an entry inside a fence',
  '```',
  '## Later',
  '1. numbered item',
  '   still the numbered item',
  '',
].join('\r\n');

describe('markdownEntrySpans', () => {
  it('finds the entries parseMarkdownEntries finds, with the same lines and text', () => {
    const full = parseMarkdownEntries(NOTE);
    expect(full.length).toBe(5);
    expect(markdownEntrySpans(NOTE)).toEqual(full.map((e) => ({ startLine: e.startLine, endLine: e.endLine, raw: e.raw })));
  });

  it('finds nothing in a file without entries', () => {
    expect(markdownEntrySpans('# Only a heading\n\n')).toEqual([]);
  });
});
