import { eolOf, isBlank, splitLines } from './textLines.js';

/**
 * Inserts `block` as whole lines before line `lineIndex` (0-based) or at the end, padded with
 * a blank line on each side where a neighbour is not blank. Existing bytes are never changed.
 */
export function insertBlock(text: string, lineIndex: number | 'end', block: readonly string[]): string {
  const eol = eolOf(text);
  const lines = splitLines(text);
  const body = block.join(eol) + eol;
  const target = lineIndex === 'end' ? undefined : lines[lineIndex];
  if (target === undefined) {
    const missingEol = text.length > 0 && !text.endsWith('\n') ? eol : '';
    const spacer = isBlank(lines.at(-1)?.text) ? '' : eol;
    return text + missingEol + spacer + body;
  }
  const spacerBefore = lineIndex === 0 || isBlank(lines[(lineIndex as number) - 1]?.text) ? '' : eol;
  const spacerAfter = isBlank(target.text) ? '' : eol;
  return text.slice(0, target.start) + spacerBefore + body + spacerAfter + text.slice(target.start);
}
