// Horizontal whitespace only: spaces, tabs, form feeds, no-break and other Unicode spaces.
const HORIZONTAL_SPACE = /[ \t\f\v\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+/g;
// C0 controls other than tab/newline/CR, and DEL: never meaningful in transcript text.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARS = /[\u0000-\u0008\u000e-\u001f\u007f]/g;
const MAX_BLANK_LINES = 2;
/**
 * Anything `collapseWhitespace` would change: a CR, a control character, a space other than a
 * single ASCII one, a character String#trim removes (line and paragraph separators, BOM), a
 * space at a line's edge, a blank line at either end, or more than two blank lines in a row.
 * Most messages have none of these, and one scan is far cheaper than splitting them into lines.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NEEDS_COLLAPSING = /[\r\t\f\v\u0000-\u0008\u000e-\u001f\u007f\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]| {2}|^[ \n]|[ \n]$| \n|\n |\n\n\n\n/;

/**
 * Collapses runs of spaces/tabs to one space, trims every line and the whole text, keeps single
 * newlines and at most two consecutive blank lines.
 */
export function normalizeWhitespace(text: string): string {
  return NEEDS_COLLAPSING.test(text) ? collapseWhitespace(text) : text;
}

/** What normalizeWhitespace does, line by line, whatever the text (exported for the test that compares the two). */
export function collapseWhitespace(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').replace(CONTROL_CHARS, '').split('\n');
  const out: string[] = [];
  let blanks = 0;
  for (const raw of lines) {
    const line = raw.replace(HORIZONTAL_SPACE, ' ').trim();
    if (line === '') {
      blanks += 1;
      if (blanks <= MAX_BLANK_LINES && out.length > 0) out.push('');
      continue;
    }
    blanks = 0;
    out.push(line);
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}
