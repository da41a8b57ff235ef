/**
 * Line-level view of a curated file: writers and undo work on whole lines, so the file's
 * line-ending style and final newline are kept apart from the lines themselves.
 */

export interface SplitText {
  lines: string[];
  /** `\r\n` when the file already uses it, else `\n`. */
  eol: string;
  /** Whether the text ended with a line break. */
  finalNewline: boolean;
}

export function splitLines(text: string): SplitText {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  if (text === '') return { lines: [], eol, finalNewline: false };
  const lines = text.split(/\r?\n/);
  const finalNewline = lines[lines.length - 1] === '';
  if (finalNewline) lines.pop();
  return { lines, eol, finalNewline };
}

export function joinLines(split: SplitText): string {
  // An empty line list is an empty file, never a lone line break.
  if (split.lines.length === 0) return '';
  return split.lines.join(split.eol) + (split.finalNewline ? split.eol : '');
}

export function isBlank(line: string): boolean {
  return line.trim() === '';
}
