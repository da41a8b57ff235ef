import type { TextEdit } from '../types.js';
import { isBlank, joinLines, splitLines } from './lines.js';

/** Appends lines under a heading, one blank line before it. */
export function appendSection(text: string, heading: string, lines: readonly string[]): TextEdit {
  const split = splitLines(text);
  const body = split.lines.length > 0 && !isBlank(split.lines.at(-1)!) ? [...split.lines, ''] : [...split.lines];
  const added = [heading, ...lines];
  return { text: joinLines({ lines: [...body, ...added], eol: split.eol, finalNewline: true }), added, changed: [] };
}

