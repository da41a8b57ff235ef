/** Line views of a text that keep byte offsets, so writers can insert without retyping a line. */

export interface TextLine {
  /** The line without its line ending. */
  text: string;
  /** Offset of the line's first character. */
  start: number;
}

/** Lines of `text` (LF or CRLF); a final line ending does not open an extra empty line. */
export function splitLines(text: string): TextLine[] {
  const lines: TextLine[] = [];
  const breaks = /\r?\n/g;
  let start = 0;
  for (let match = breaks.exec(text); match; match = breaks.exec(text)) {
    lines.push({ text: text.slice(start, match.index), start });
    start = match.index + match[0].length;
  }
  if (start < text.length) lines.push({ text: text.slice(start), start });
  return lines;
}

/** Plain line strings, 0-based (line N of the file is index N-1). */
export function lineTexts(text: string): string[] {
  return splitLines(text).map((line) => line.text);
}

/** The file's own line ending, so added lines match a CRLF diary. */
export function eolOf(text: string): '\r\n' | '\n' {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

export function isBlank(line: string | undefined): boolean {
  return line === undefined || line.trim() === '';
}

/** What a writer reports as added: blank spacing lines carry nothing a rollback could find. */
export function contentLines(lines: readonly string[]): string[] {
  return lines.filter((line) => line.trim() !== '');
}
