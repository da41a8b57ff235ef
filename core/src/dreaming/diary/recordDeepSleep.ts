import type { TextEdit } from '../types.js';
import { DEEP_END, DEEP_HEADING, DEEP_START, isDeepHeading, isHistoryHeading } from './diaryMarkers.js';
import { insertBlock } from './insertBlock.js';
import { contentLines, eolOf, lineTexts, splitLines } from './textLines.js';

/**
 * Replaces the last deep sleep block's lines (it is a status block, rewritten each run); adds a
 * block when none is well-formed: under an unmarked `## Deep Sleep`, else before the history
 * section (OpenClaw's order), else at the end.
 *
 * Change report: line i of the old block → line i of the new one as `changed` pairs, extra new
 * lines as `added`. Extra old lines are folded into the last pair's `before` (joined with a
 * newline; the start marker anchors the pair when no new line is left), so swapping each `after`
 * back for its `before` restores the block exactly and no pair has an empty `after`.
 */
export function recordDeepSleep(text: string, lines: string[]): TextEdit {
  const formatted = lines.map((line) => line.trim()).filter((line) => line !== '').map((line) => (line.startsWith('- ') ? line : `- ${line}`));
  const start = text.lastIndexOf(DEEP_START);
  const end = start < 0 ? -1 : text.indexOf(DEEP_END, start + DEEP_START.length);
  if (end < 0) return addBlock(text, formatted);
  const eol = eolOf(text);
  const innerStart = start + DEEP_START.length;
  const oldLines = contentLines(lineTexts(text.slice(innerStart, end)).map((line) => line.trimEnd()));
  const inner = eol + formatted.map((line) => line + eol).join('');
  return { text: text.slice(0, innerStart) + inner + text.slice(end), ...lineChanges(oldLines, formatted) };
}

function addBlock(text: string, formatted: string[]): TextEdit {
  const texts = splitLines(text).map((line) => line.text);
  const heading = texts.findLastIndex((line) => isDeepHeading(line));
  if (heading >= 0) {
    const block = [DEEP_START, ...formatted, DEEP_END];
    return { text: insertDirectlyAfter(text, heading, block), added: contentLines(block), changed: [] };
  }
  const history = texts.findIndex((line) => isHistoryHeading(line));
  const block = [DEEP_HEADING, DEEP_START, ...formatted, DEEP_END];
  return { text: insertBlock(text, history >= 0 ? history : 'end', block), added: contentLines(block), changed: [] };
}

/** Lines right under line `index`, with no spacing (markers sit directly under the heading). */
function insertDirectlyAfter(text: string, index: number, block: string[]): string {
  const eol = eolOf(text);
  const next = splitLines(text)[index + 1];
  if (next === undefined) return text + (text.endsWith('\n') ? '' : eol) + block.join(eol) + eol;
  return text.slice(0, next.start) + block.join(eol) + eol + text.slice(next.start);
}

function lineChanges(oldLines: string[], newLines: string[]): Pick<TextEdit, 'added' | 'changed'> {
  const changed: TextEdit['changed'] = [];
  const overlap = Math.min(oldLines.length, newLines.length);
  for (let i = 0; i < overlap; i++) if (oldLines[i] !== newLines[i]) changed.push({ before: oldLines[i]!, after: newLines[i]! });
  const surplus = oldLines.slice(overlap);
  if (surplus.length > 0) {
    const anchorAfter = overlap > 0 ? newLines[overlap - 1]! : DEEP_START;
    const anchorBefore = overlap > 0 ? oldLines[overlap - 1]! : DEEP_START;
    const last = changed.at(-1);
    if (last !== undefined && last.after === anchorAfter && overlap > 0 && last.before === anchorBefore) changed.pop();
    changed.push({ before: [anchorBefore, ...surplus].join('\n'), after: anchorAfter });
  }
  return { added: newLines.slice(overlap), changed };
}
