import { hasMatch } from '../highlight/highlightTerms.js';

/** The part of a result's snippet worth showing: its matching lines, without the note's front matter. */
export interface SnippetWindow {
  text: string;
  /** Lines left out above and below the window. */
  hiddenAbove: number;
  hiddenBelow: number;
}

/** Lines a snippet shows at most: about what fits in a result card. */
export const SNIPPET_LINES = 8;

/**
 * Drops YAML front matter from the top of a snippet that starts at the file's first line (a
 * snippet cut inside it loses the part it has), then keeps up to `maxLines` lines starting just
 * above the first line that holds a query word, so the match is never below the fold.
 */
export function snippetWindow(snippet: string, startLine: number, stems: ReadonlySet<string>, maxLines = SNIPPET_LINES): SnippetWindow {
  let lines = snippet.split('\n');
  if (startLine === 1 && lines[0]?.trim() === '---') {
    const close = lines.findIndex((line, i) => i > 0 && /^(?:---|\.\.\.)\s*$/.test(line));
    lines = close < 0 ? [] : lines.slice(close + 1);
    while (lines.length > 0 && lines[0]!.trim() === '') lines.shift();
  }
  const firstMatch = lines.findIndex((line) => hasMatch(line, stems));
  // One line of context above the match (a heading or the start of its list item).
  const start = firstMatch <= 0 ? 0 : Math.min(firstMatch - 1, Math.max(0, lines.length - maxLines));
  const end = Math.min(lines.length, start + maxLines);
  return { text: lines.slice(start, end).join('\n'), hiddenAbove: start, hiddenBelow: lines.length - end };
}
