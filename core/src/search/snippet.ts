/**
 * Line-focused snippets: the run of consecutive lines (at most `maxChars`) that covers the
 * most query weight, so a cited `path:start-end` points at the lines that matched.
 */
export interface SnippetTerm {
  /** Forms to look for at the start of a word (the typed word and its stem). */
  forms: string[];
  weight: number;
}

export interface Snippet {
  text: string;
  startLine: number;
  endLine: number;
  /** Query weight matched inside the snippet's lines (the sum of matched terms' weights). */
  matchedWeight: number;
}

export const MAX_SNIPPET_CHARS = 700;
/** Snippets grow with surrounding lines until about this size. */
const CONTEXT_CHARS = 280;

export function buildSnippet(chunkText: string, chunkStartLine: number, terms: readonly SnippetTerm[], maxChars = MAX_SNIPPET_CHARS): Snippet {
  const lines = chunkText.split('\n');
  const matcher = buildMatcher(terms);
  const found = lines.map((line) => termsIn(line, matcher));

  // Sliding window over consecutive lines: the most matched weight within the budget.
  const lineWeight = found.map((set) => [...set].reduce((n, t) => n + terms[t]!.weight, 0));
  let best = { from: 0, to: 0, weight: -1 };
  let from = 0;
  let chars = 0;
  let weight = 0;
  for (let to = 0; to < lines.length; to++) {
    chars += lines[to]!.length + (to > from ? 1 : 0);
    weight += lineWeight[to]!;
    while (chars > maxChars && from < to) {
      chars -= lines[from]!.length + 1;
      weight -= lineWeight[from]!;
      from++;
    }
    if (weight > best.weight) best = { from, to, weight };
  }
  while (best.from < best.to && found[best.from]!.size === 0) best.from++;
  // Drop lines at the end that match nothing: the citation should point at what matched.
  while (best.to > best.from && found[best.to]!.size === 0) best.to--;
  const covered = new Set<number>();
  for (let i = best.from; i <= best.to; i++) for (const t of found[i]!) covered.add(t);
  const matchedWeight = [...covered].reduce((n, t) => n + terms[t]!.weight, 0);

  // A lone matching line reads poorly: widen with neighbours up to a modest size.
  let size = lines.slice(best.from, best.to + 1).reduce((n, l) => n + l.length + 1, 0);
  while (size < CONTEXT_CHARS) {
    const next = best.to + 1 < lines.length ? lines[best.to + 1]!.length + 1 : Infinity;
    const prev = best.from > 0 ? lines[best.from - 1]!.length + 1 : Infinity;
    if (Math.min(next, prev) === Infinity || size + Math.min(next, prev) > maxChars) break;
    if (next <= prev) best.to++;
    else best.from--;
    size += Math.min(next, prev);
  }

  let text = lines.slice(best.from, best.to + 1).join('\n');
  if (text.length > maxChars) text = cutAroundFirstMatch(text, matcher, maxChars);
  return { text, startLine: chunkStartLine + best.from, endLine: chunkStartLine + best.to, matchedWeight };
}

interface Matcher {
  regex: RegExp | null;
  formToTerm: Map<string, number>;
}

function buildMatcher(terms: readonly SnippetTerm[]): Matcher {
  const formToTerm = new Map<string, number>();
  terms.forEach((t, i) => t.forms.forEach((f) => f && !formToTerm.has(f) && formToTerm.set(f, i)));
  const forms = [...formToTerm.keys()].sort((a, b) => b.length - a.length).map(escapeRegex);
  return {
    regex: forms.length ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${forms.join('|')})`, 'giu') : null,
    formToTerm,
  };
}

function termsIn(line: string, matcher: Matcher): Set<number> {
  const found = new Set<number>();
  if (!matcher.regex) return found;
  for (const m of fold(line).matchAll(matcher.regex)) {
    const term = matcher.formToTerm.get(m[0].toLowerCase());
    if (term !== undefined) found.add(term);
  }
  return found;
}

function cutAroundFirstMatch(text: string, matcher: Matcher, maxChars: number): string {
  const first = matcher.regex ? fold(text).search(matcher.regex) : -1;
  const start = Math.max(0, Math.min(first < 0 ? 0 : first - Math.floor(maxChars / 4), text.length - maxChars + 2));
  let piece = text.slice(start, start + maxChars - 2);
  // Do not leave half a surrogate pair at either end.
  if (/^[\uDC00-\uDFFF]/.test(piece)) piece = piece.slice(1);
  if (/[\uD800-\uDBFF]$/.test(piece)) piece = piece.slice(0, -1);
  return (start > 0 ? '…' : '') + piece + (start + maxChars - 2 < text.length ? '…' : '');
}

/** Lower-case and strip diacritics without changing string length (so offsets stay valid). */
function fold(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length !== text.length) return text;
  const stripped = lower.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
  return stripped.length === text.length ? stripped : lower;
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
