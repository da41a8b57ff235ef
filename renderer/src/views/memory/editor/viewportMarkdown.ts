import { markdownLanguage } from '@codemirror/lang-markdown';
import type { Extension, Range, Text } from '@codemirror/state';
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
  const marks: Array<Range<Decoration>> = [];
  const doc = view.state.doc;
  let coveredTo = 0;
  for (const visible of view.visibleRanges) {
    const from = Math.max(blockStartAbove(doc, visible.from), coveredTo);
    const to = doc.lineAt(visible.to).to;
    if (from >= to) continue;
    const tree = markdownLanguage.parser.parse(doc.sliceString(from, to));
    highlightTree(tree, classHighlighter, (start, end, className) => {
      marks.push(Decoration.mark({ class: className }).range(from + start, from + end));
    });
    coveredTo = to;
  }
  return Decoration.set(marks, true);
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
