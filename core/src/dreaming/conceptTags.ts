import { STOPWORDS } from '../platform/text/stopwords.js';

const WIKI_LINK = /\[\[([^\]|#]{1,80})(?:[#|][^\]]*)?\]\]/g;
const HASH_TAG = /(?:^|\s)#([\p{L}\p{N}][\p{L}\p{N}_/-]{1,40})/gu;
/** Host names, package names, identifiers with digits or separators: `ledgerd-prod-2`, `fly.io`, `snake_case`. */
const IDENTIFIER = /\b[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)+\b/gi;
const CAPITALISED_SPAN = /\b[A-Z][\p{L}\p{N}'’-]*(?:\s+[A-Z][\p{L}\p{N}'’-]*)*/gu;
const WORD = /[\p{L}][\p{L}\p{N}'-]*/gu;
const MAX_KEYWORDS = 3;

/**
 * Concept tags of an entry, extracted deterministically: wiki-links, #tags, identifiers,
 * names (capitalised words that are not merely sentence-initial) and its longest content
 * words. REM groups entries into themes by shared tags; richness counts them.
 */
export function conceptTags(text: string): string[] {
  const tags = new Set<string>();
  for (const m of text.matchAll(WIKI_LINK)) tags.add(m[1]!.trim().toLowerCase());
  for (const m of text.matchAll(HASH_TAG)) tags.add(m[1]!.toLowerCase());
  const withoutLinks = text.replace(WIKI_LINK, ' ').replace(/https?:\/\/\S+/g, ' ');
  for (const m of withoutLinks.matchAll(IDENTIFIER)) if (/[a-z]{2}/i.test(m[0])) tags.add(m[0].toLowerCase());
  for (const m of withoutLinks.matchAll(CAPITALISED_SPAN)) {
    const start = m.index ?? 0;
    const before = withoutLinks.slice(0, start).trimEnd();
    const sentenceInitial = before === '' || /[.!?:;\-*]$/.test(before);
    const words = m[0].split(/\s+/).filter((w) => !STOPWORDS.has(w.toLowerCase()));
    if (words.length === 0) continue;
    if (sentenceInitial && words.length === 1) continue;
    const span = (sentenceInitial ? words.slice(1) : words).join(' ');
    if (span.length >= 2) tags.add(span.toLowerCase());
  }
  const keywords = [...new Set([...withoutLinks.matchAll(WORD)].map((m) => m[0].toLowerCase()))]
    .filter((w) => w.length >= 6 && !STOPWORDS.has(w))
    .sort((a, b) => b.length - a.length || a.localeCompare(b))
    .slice(0, MAX_KEYWORDS);
  for (const k of keywords) tags.add(k);
  return [...tags];
}
