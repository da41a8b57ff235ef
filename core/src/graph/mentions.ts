import type { EntityType } from '../contract/index.js';
import { STOPWORDS } from '../platform/text/stopwords.js';
import type { EntityMention } from './types.js';

/** An entity named at a place in an entry's body. */
export interface PositionedMention extends EntityMention {
  start: number;
  end: number;
  /** `[[Target|shown]]`: the shown text, an alias of the target. */
  alias?: string;
}

/** No entry, however long, yields more mentions than this (an entry with 10,000 links stays cheap). */
export const MAX_MENTIONS_PER_ENTRY = 64;

const SOURCE_REF = /\S+#L\d+(?:-L?\d+)?\b/g;
const WIKI_LINK = /\[\[([^\][|#\n]{1,200})(?:#[^\]|\n]*)?(?:\|([^\]\n]{1,200}))?\]\]/g;
const MARKDOWN_LINK = /\[([^\]\n]{0,200})\]\((https?:\/\/[^\s)]{1,2000})\)/g;
const URL = /\bhttps?:\/\/[^\s<>()[\]]{1,2000}/g;
const CODE = /`([^`\n]{2,80})`/g;
const HASH_TAG = /(?<![\p{L}\p{N}&/#])#([\p{L}\p{N}][\p{L}\p{N}_/-]{0,60})/gu;
const FILE_PATH = /(?<![\w/.])(?:~\/|\.{1,2}\/|\/)?(?:[\w.-]+\/)+[\w-]+(?:\.[A-Za-z0-9]{1,8})?(?![\w/])/g;
const DOMAIN = /\b[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.(?:com|org|net|io|dev|app|sh|de|uk|fr|eu|co|me|ai|cloud|local|lan|internal|home)\b/gi;
/** Host names with a number part (`ledgerd-prod-2`, `db01`): machines. */
const HOST = /\b[a-z][a-z0-9]*(?:-[a-z0-9]+)*-?\d+[a-z0-9]*\b/g;
/** snake_case, camelCase, dotted.module names: code identifiers. */
const IDENTIFIER = /\b(?:[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+[A-Z][A-Za-z0-9]*|[a-z][a-z0-9]*(?:\.[a-z][a-z0-9]*){2,})\b/g;
const CAPITALISED_SPAN = /\p{Lu}[\p{L}\p{N}'’-]*(?:[ \t]+\p{Lu}[\p{L}\p{N}'’-]*)*/gu;

/** Month and weekday names are dates, not names. */
const CALENDAR_WORDS = new Set(
  'january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays thursdays fridays saturdays sundays today tomorrow yesterday'.split(
    ' ',
  ),
);
/** Words next to a name that say it is a person. */
const PERSON_AFTER = /^\s+(?:said|says|asked|told|wants|prefers|thinks|is out|was out|owns|moved|lives|works|joined|left|suggested|likes|met|mentioned|wrote|called|emailed|agreed|reviewed|recommended)\b/;
const SUBJECT_AFTER = /^\s+(?:uses|is using|runs|is|was|has|had|will|switched)\b/;
const PERSON_BEFORE = /\b(?:with|by|told|asked|met|cc|thanks to|call with|meeting with)\s+$/i;
const ORGANISATION_SUFFIX = /\s(?:Inc|GmbH|Ltd|LLC|Labs|Corp|AG|SA|BV)\.?$/;

/**
 * Entities an entry's body names, found by syntax: links, tags, URLs, paths, hosts, code
 * identifiers, then capitalised names. Matched spans are masked so a URL is not also a path.
 */
export function findMentions(body: string): PositionedMention[] {
  const found: PositionedMention[] = [];
  let masked = body;
  const take = (pattern: RegExp, make: (m: RegExpMatchArray) => Omit<PositionedMention, 'start' | 'end'> | null, group = 0): void => {
    for (const m of masked.matchAll(pattern)) {
      if (found.length >= MAX_MENTIONS_PER_ENTRY) return;
      const made = make(m);
      const start = m.index ?? 0;
      const end = start + m[0].length;
      if (made && made.label.trim().length > 0) found.push({ ...made, start: group === 0 ? start : start + m[0].indexOf(m[group]!), end });
      masked = masked.slice(0, start) + ' '.repeat(m[0].length) + masked.slice(end);
    }
  };
  // Source references (`memory/2026-04-04.md#L3-L5`) point at evidence; they name nothing.
  take(SOURCE_REF, () => null);
  take(WIKI_LINK, (m) => ({ type: 'concept', label: m[1]!, certainty: 'weak', ...(m[2] ? { alias: m[2] } : {}) }));
  take(MARKDOWN_LINK, (m) => ({ type: 'url', label: trimUrl(m[2]!), certainty: 'strong' }));
  take(URL, (m) => ({ type: 'url', label: trimUrl(m[0]), certainty: 'strong' }));
  take(CODE, (m) => codeMention(m[1]!));
  take(HASH_TAG, (m) => (/^\d+$/.test(m[1]!) ? null : { type: 'tag', label: m[1]!.toLowerCase(), certainty: 'strong' }));
  take(FILE_PATH, (m) => (/^\d+(?:\/\d+)+$/.test(m[0]) || m[0].split('/').filter(Boolean).length < 2 ? null : { type: 'path', label: m[0], certainty: 'strong' }));
  take(DOMAIN, (m) => ({ type: 'machine', label: m[0].toLowerCase(), certainty: 'strong' }));
  take(HOST, (m) => (/^v?\d/.test(m[0]) || !/[a-z]{2}/.test(m[0]) ? null : { type: 'machine', label: m[0], certainty: 'strong' }));
  take(IDENTIFIER, (m) => ({ type: 'identifier', label: m[0], certainty: 'strong' }));
  found.push(...findNames(masked, MAX_MENTIONS_PER_ENTRY - found.length));
  return found.sort((a, b) => a.start - b.start);
}

function trimUrl(url: string): string {
  return url.replace(/[.,;:!?'"]+$/, '');
}

function codeMention(code: string): Omit<PositionedMention, 'start' | 'end'> | null {
  if (/\s/.test(code.trim())) return null; // a command line or a phrase, not a name
  if (code.includes('/')) return { type: 'path', label: code, certainty: 'strong' };
  return { type: 'identifier', label: code, certainty: 'strong' };
}

/**
 * Capitalised words and multi-word spans. A span starting a sentence loses its first word
 * (it may be capitalised only for being first); a lone sentence-initial word is tentative.
 */
function findNames(text: string, budget: number): PositionedMention[] {
  const names: PositionedMention[] = [];
  for (const m of text.matchAll(CAPITALISED_SPAN)) {
    if (names.length >= budget) break;
    let start = m.index ?? 0;
    let words = m[0].split(/[ \t]+/);
    const before = text.slice(Math.max(0, start - CONTEXT_CHARS), start).trimEnd();
    const initial = before === '' || /[.!?:;]$/.test(before) || /(?:^|\s)[-*>]$/.test(before);
    if (initial) {
      if (words.length === 1) {
        const word = words[0]!;
        if (!isNameWord(word)) continue;
        // "Priya said …" is a person even at the start of a sentence.
        const person = PERSON_AFTER.test(after(text, start + word.length));
        names.push({ type: person ? 'person' : 'concept', label: word, certainty: person ? 'strong' : 'tentative', start, end: start + word.length });
        continue;
      }
      // "Marek Nowak owns …": a span in subject position is a name as a whole.
      const subject = PERSON_AFTER.test(after(text, start + m[0].length)) || SUBJECT_AFTER.test(after(text, start + m[0].length));
      if (!subject || STOPWORDS.has(words[0]!.toLowerCase())) {
        start += words[0]!.length + m[0].slice(words[0]!.length).search(/\S/);
        words = words.slice(1);
      }
    }
    // Split at stopwords and calendar words: "Sam and Dana" names two people.
    let run: string[] = [];
    let runStart = start;
    let offset = start;
    const flush = () => {
      if (run.length > 0 && names.length < budget) names.push(nameMention(run.join(' '), runStart, text));
      run = [];
    };
    for (const word of words) {
      const at = text.indexOf(word, offset);
      offset = at + word.length;
      if (!isNameWord(word)) {
        flush();
        continue;
      }
      if (run.length === 0) runStart = at;
      run.push(word);
    }
    flush();
  }
  return names;
}

/** Cues are read this close to a name: a long entry never costs more per name. */
const CONTEXT_CHARS = 60;

function after(text: string, at: number): string {
  return text.slice(at, at + CONTEXT_CHARS);
}

function isNameWord(word: string): boolean {
  const lower = word.toLowerCase().replace(/['’]s$/, '');
  return lower.length >= 2 && !STOPWORDS.has(lower) && !CALENDAR_WORDS.has(lower) && /\p{L}/u.test(word);
}

function nameMention(label: string, start: number, text: string): PositionedMention {
  const clean = label.replace(/['’]s$/, '');
  const end = start + clean.length;
  let type: EntityType = 'concept';
  let certainty: EntityMention['certainty'] = 'weak';
  if (ORGANISATION_SUFFIX.test(clean)) [type, certainty] = ['organization', 'strong'];
  else if (PERSON_AFTER.test(after(text, start + label.length)) || PERSON_BEFORE.test(text.slice(Math.max(0, start - CONTEXT_CHARS), start))) [type, certainty] = ['person', 'strong'];
  return { type, label: clean, certainty, start, end };
}
