import { ensureSyntaxTree } from '@codemirror/language';
import { markdownLanguage } from '@codemirror/lang-markdown';
import { EditorState, Text } from '@codemirror/state';
import { classHighlighter, highlightTree } from '@lezer/highlight';
import { describe, expect, it } from 'vitest';
import { markdownMarks, VIEWPORT_HIGHLIGHT_CHARS } from '../src/views/memory/editor/viewportMarkdown.js';

const NOTE = [
  '# Tax module',
  '',
  'Met **Dana** about the [[tax-module]]; see https://example.org/plan.',
  '',
  '## Actions',
  '',
  '- *Decide* about backups',
  '- Move the `quill` deploy to Friday',
  '',
  '> A quote from the review.',
].join('\n');

function marked(doc: Text, from: number, to: number, className: string): string[] {
  return markdownMarks(doc, [{ from, to }])
    .filter((m) => m.className === className)
    .map((m) => doc.sliceString(m.from, m.to));
}

/** What the full Markdown language marks, for comparison. */
function fullLanguageMarks(text: string): Array<{ from: number; to: number; className: string }> {
  const state = EditorState.create({ doc: text, extensions: markdownLanguage });
  const tree = ensureSyntaxTree(state, text.length, 5_000);
  if (!tree) throw new Error('the full parse did not finish');
  const marks: Array<{ from: number; to: number; className: string }> = [];
  highlightTree(tree, classHighlighter, (from, to, className) => marks.push({ from, to, className }));
  return marks;
}

describe('viewport Markdown highlighting (large notes)', () => {
  it('marks the same tokens as the full language when the whole note is in view', () => {
    const doc = Text.of(NOTE.split('\n'));
    expect(markdownMarks(doc, [{ from: 0, to: doc.length }])).toEqual(fullLanguageMarks(NOTE));
  });

  it('parses a view in the middle of a note from the blank line above it, so its blocks are right', () => {
    const doc = Text.of(NOTE.split('\n'));
    // The view starts at the list's second item; the parse starts at the blank line above the list,
    // so both items are list items, with their markers and inline marks.
    const secondItem = doc.line(8);
    expect(marked(doc, secondItem.from, doc.length, 'tok-emphasis')).toEqual(['Decide']);
    expect(marked(doc, secondItem.from, doc.length, 'tok-meta')).toEqual(['-', '-', '`', '`', '>']);
    // Nothing above that blank line is parsed: the headings get no mark.
    expect(marked(doc, secondItem.from, doc.length, 'tok-heading')).toEqual([]);
  });

  it('costs the same on a 1 MB note as on a short one: only the lines asked for are parsed', () => {
    const line = '- Met Dana about the tax module; the **Quillfeather** plan moves to Friday.';
    const lines = ['# Big', '', ...Array.from({ length: Math.ceil(1_048_576 / line.length) }, () => line)];
    const doc = Text.of(lines);
    expect(doc.length).toBeGreaterThan(VIEWPORT_HIGHLIGHT_CHARS);
    const middle = doc.line(7_000);
    const view = { from: middle.from, to: doc.line(7_040).to };
    const marks = markdownMarks(doc, [view]);
    // Forty lines in view, each with its strong text marked; the parse began at most 200 lines above.
    expect(marks.filter((m) => m.className === 'tok-strong').length).toBeGreaterThanOrEqual(41);
    expect(Math.min(...marks.map((m) => m.from))).toBeGreaterThanOrEqual(doc.line(6_800).from);
    expect(Math.max(...marks.map((m) => m.to))).toBeLessThanOrEqual(view.to);
  });

  it('parses two visible ranges without marking the overlap twice', () => {
    const doc = Text.of(NOTE.split('\n'));
    const marks = markdownMarks(doc, [
      { from: doc.line(3).from, to: doc.line(3).to },
      { from: doc.line(7).from, to: doc.length },
    ]);
    for (const [index, mark] of marks.entries()) if (index > 0) expect(mark.from).toBeGreaterThanOrEqual(marks[index - 1]!.from);
    expect(marks.filter((m) => m.className === 'tok-strong').map((m) => doc.sliceString(m.from, m.to))).toEqual(['Dana']);
  });
});
