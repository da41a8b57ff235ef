/**
 * The last word before a name, for the cues that end "…word\s+$" ("lives in ", "engineer at
 * the "): the ASCII letters right before the trailing whitespace, lowercased; "" when no
 * whitespace ends the text. Such a cue's pattern is tried at every position of the words
 * before every name; asking first whether its last word is one it may end with is one lookup.
 */
export function tailWordOf(before: string): string {
  const end = before.trimEnd().length; // the whitespace \s matches
  if (end === before.length) return '';
  let start = end;
  // No cue's last word is longer: a longer run of letters is none of them either way.
  while (start > 0 && end - start < MAX_TAIL && isAsciiLetter(before.charCodeAt(start - 1))) start--;
  return before.slice(start, end).toLowerCase();
}

const MAX_TAIL = 16;

function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** The words a cue's pattern may end (or start) with, space-separated; with "the" where "(?:the\s+)?" may follow the last one. */
export const cueWords = (words: string): ReadonlySet<string> => new Set(words.split(' '));

/**
 * The first word after a name, for the cues that start "^\s+word" ("the Atlas box", "Lisbon
 * trip"): the ASCII letters after the leading whitespace, case kept; "" when no whitespace
 * starts the text. Such a cue runs only when its pattern may start with that word.
 */
export function headWordOf(after: string): string {
  let start = 0;
  while (start < after.length && /\s/.test(after[start]!)) start++;
  if (start === 0) return '';
  let end = start;
  while (end < after.length && end - start < MAX_TAIL && isAsciiLetter(after.charCodeAt(end))) end++;
  return after.slice(start, end);
}
