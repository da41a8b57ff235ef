import { markdownLanguage } from '@codemirror/lang-markdown';
import type { Extension, Text } from '@codemirror/state';
import { Decoration, type DecorationSet, type EditorView, ViewPlugin, type ViewUpdate } from '@codemirror/view';
import { classHighlighter, highlightTree } from '@lezer/highlight';

/**
 * Notes at least this long (in characters) get viewport highlighting instead of the full Markdown language:
 * CodeMirror re-parses the whole document after each change (in the keystroke and then in idle
 * time), and Markdown's incremental parse does not reuse much of a long list, so on a 1 MB note
 * every keystroke cost tens of milliseconds of parsing.
 */
export const VIEWPORT_HIGHLIGHT_CHARS = 256 * 1024;

// How far above the first visible line to look for a blank line to start parsing from.
const MAX_LINES_BACK = 200;

/**
 * Markdown highlighting (the same tok-* classes as the full language) that parses only the lines
 * in view, from the nearest blank line above them: a keystroke costs the same on any size of note.
 * The price: a block opened far above the view (a long fenced code block) is not known.
 */
export function viewportMarkdownHighlighting(): Extension {
  return ViewPlugin.fromClass(
    class {
      decorations: DecorationSet;
      constructor(view: EditorView) {
        this.decorations = highlightVisibleLines(view);
      }
      update(update: ViewUpdate): void {
        if (update.docChanged || update.viewportChanged) this.decorations = highlightVisibleLines(update.view);
      }
    },
    { decorations: (plugin) => plugin.decorations },
  );
}

function highlightVisibleLines(view: EditorView): DecorationSet {
  return Decoration.set(
    markdownMarks(view.state.doc, view.visibleRanges).map(({ from, to, className }) => Decoration.mark({ class: className }).range(from, to)),
    true,
  );
}

export interface TokenMark {
  from: number;
  to: number;
  /** classHighlighter's class (tok-heading, tok-emphasis…). */
  className: string;
}

/** Highlight classes for the lines of `ranges`, each parsed from the nearest blank line above it. */
export function markdownMarks(doc: Text, ranges: ReadonlyArray<{ from: number; to: number }>): TokenMark[] {
  const marks: TokenMark[] = [];
  let coveredTo = 0;
  for (const range of ranges) {
    const from = Math.max(blockStartAbove(doc, range.from), coveredTo);
    const to = doc.lineAt(range.to).to;
    if (from >= to) continue;
    const tree = markdownLanguage.parser.parse(doc.sliceString(from, to));
    highlightTree(tree, classHighlighter, (start, end, className) => marks.push({ from: from + start, to: from + end, className }));
    coveredTo = to;
  }
  return marks;
}

/** The start of the nearest blank line at or above `pos` (within MAX_LINES_BACK lines), else that line's start. */
function blockStartAbove(doc: Text, pos: number): number {
  const first = doc.lineAt(pos);
  for (let number = first.number, steps = 0; number >= 1 && steps < MAX_LINES_BACK; number--, steps++) {
    const line = doc.line(number);
    if (line.text.trim() === '') return line.from;
  }
  return first.number - MAX_LINES_BACK >= 1 ? first.from : 0;
}
