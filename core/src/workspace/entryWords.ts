/**
 * The marks around a note line's words (a list marker, a checkbox, comments, bold and italics),
 * shared by the kind rules (entryKind.ts) and the kind scorer's features (kindFeatures.ts).
 */

export const LIST_MARKER = /^\s*(?:[-*+]|\d+[.)])\s+/;
/** "[ ]", "[x]", "[]", "[-]", "( )", "☐", "☑", "✅": a checkbox in any of the ways people type one. */
export const CHECKBOX = /^(?:\[[ xX\-/>~*]?\]|\(\s?[xX]?\s?\)|[☐☑☒✅🔲⬜▢])\s*/u;
export const COMMENTS = /<!--[\s\S]*?-->/g;
/** Bold and italics markers ("**TODO** fix…"): formatting, not wording. */
export const EMPHASIS = /\*\*|__/g;

/** A line without its list marker (`body`, checkbox kept), and its words alone, spaces folded (`words`). */
export function entryWords(raw: string): { body: string; words: string } {
  const body = raw.replace(LIST_MARKER, '');
  const words = withSpacesFolded(withoutEmphasis(withoutComments(body.replace(CHECKBOX, '')))).trim();
  return { body, words };
}

/** Whitespace other than one space between words: a line without any is already folded. */
const UNFOLDED_SPACE = /[^\S ]| {2}/;

/** `text` with each run of whitespace one space; most lines have none to fold, and the look costs less than the rewrite. */
function withSpacesFolded(text: string): string {
  return UNFOLDED_SPACE.test(text) ? text.replace(/\s+/g, ' ') : text;
}

/** `text` with each comment a space; most lines have none, and the look costs less than the scan. */
export function withoutComments(text: string): string {
  return text.includes('<!--') ? text.replace(COMMENTS, ' ') : text;
}

/** `text` without bold and italics markers (the same look first). */
export function withoutEmphasis(text: string): string {
  return text.includes('**') || text.includes('__') ? text.replace(EMPHASIS, '') : text;
}
