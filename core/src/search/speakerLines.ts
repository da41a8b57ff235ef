/**
 * Lines spoken by a person: chat logs, meeting notes and transcripts open a line with the
 * speaker's name ("- [D1:3] Caroline: …", "**Sam:** …", "Ana: …"). A question about a person
 * ("What activities does Melanie …") wants that person's own lines, not the other speaker's
 * replies that merely address them ("Thanks, Melanie!"); in a conversation the name is in
 * every passage, so as a word it weighs nothing.
 */

import { STOPWORDS } from '../platform/text/stopwords.js';

/** An optional bullet or number, an optional bracketed tag or time, then "Name:" (one to three capitalised words, optionally bold). */
const SPEAKER_OPENING = /^[ \t]*(?:[-*+][ \t]+|\d+[.)][ \t]+)?(?:\[[^\]\n]{0,40}\][ \t]*)?(?:\*\*)?(\p{Lu}[\p{L}'’-]*(?: \p{Lu}[\p{L}'’-]*){0,2})(?:\*\*)?:(?:\*\*)?[ \t]/u;

/** The lower-cased name a line opens with as its speaker, or null. */
export function lineSpeaker(line: string): string | null {
  const m = SPEAKER_OPENING.exec(line);
  return m ? m[1]!.toLowerCase() : null;
}

/** Whether a line opens with one of `people` (lower-cased single names) as its speaker; "Sam Lee:" is spoken by "sam" and by "lee". */
export function isSpokenBy(line: string, people: ReadonlySet<string>): boolean {
  const speaker = lineSpeaker(line);
  return speaker !== null && speaker.split(' ').some((name) => people.has(name));
}

/** Capitalised words of a query that are not stop words ("What"), a possessive "'s" dropped, lower-cased: the people it may name. */
export function namedPeople(query: string): Set<string> {
  const names = new Set<string>();
  for (const m of query.matchAll(/(?<![\p{L}\p{N}])\p{Lu}[\p{Ll}'’-]*\p{Ll}(?:['’]s)?(?![\p{L}\p{N}])/gu)) {
    const name = m[0].replace(/['’]s$/u, '').toLowerCase();
    if (!STOPWORDS.has(name)) names.add(name);
  }
  return names;
}

/** Whether any line of `text` is spoken by one of `people`. */
export function hasLineSpokenBy(text: string, people: ReadonlySet<string>): boolean {
  return text.split('\n').some((line) => isSpokenBy(line, people));
}
