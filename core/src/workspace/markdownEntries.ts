/**
 * Markdown entries: the unit dreaming promotes and curated files are made of. An entry is a
 * bullet (with its indented continuation lines) or a paragraph line, with the heading it sits
 * under. HTML comment lines (OpenClaw's promotion and lineage markers) attach to the entry
 * that follows them; fenced code is never split into entries.
 */

export interface EntryAnnotations {
  triggers: string[];
  importance: number | null;
  project: string | null;
  observed: string | null;
  status: 'active' | 'superseded' | null;
  /** `<!-- openclaw-memory-promotion:<key> -->` markers directly above the entry. */
  promotionKeys: string[];
  /** `<!-- openclaw-memory-lineage:<key> -->` markers directly above the entry. */
  lineageKeys: string[];
}

export interface MarkdownEntry {
  /** 1-based, inclusive: the entry's own lines (markers above it excluded). */
  startLine: number;
  endLine: number;
  /** The lines as written. */
  raw: string;
  /** The text without bullet marker, inline annotations and trailing metadata. */
  body: string;
  heading: string | null;
  bullet: boolean;
  annotations: EntryAnnotations;
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^(\s*)(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/;
const FENCE = /^\s*(```|~~~)/;
const COMMENT_LINE = /^\s*<!--.*-->\s*$/;
const COMMENT = /<!--([\s\S]*?)-->/g;
const TRAILING_METADATA = /\s*\[score=[^\]]*\]\s*$/;

export function parseMarkdownEntries(text: string): MarkdownEntry[] {
  const entries: MarkdownEntry[] = [];
  walkEntries(text, (start, lines, heading, bullet, markers) => entries.push(buildEntry(start, lines, heading, bullet, markers)));
  return entries;
}

/** An entry's lines and text as written, without the rest parseMarkdownEntries works out. */
export interface MarkdownEntrySpan {
  startLine: number;
  endLine: number;
  raw: string;
}

/**
 * The same entries as parseMarkdownEntries, only their lines and text: the entry kinds of every
 * file of a first index need nothing else, and the body and annotations were a tenth of their cost.
 */
export function markdownEntrySpans(text: string): MarkdownEntrySpan[] {
  const spans: MarkdownEntrySpan[] = [];
  walkEntries(text, (start, lines) => spans.push({ startLine: start, endLine: start + lines.length - 1, raw: lines.join('\n') }));
  return spans;
}

type EntryFound = (start: number, lines: string[], heading: string | null, bullet: boolean, markers: string[]) => void;

/** Finds the entries of a Markdown file in order, each told to `found` with its lines and context. */
function walkEntries(text: string, found: EntryFound): void {
  const lines = text.split(/\r?\n/);
  let heading: string | null = null;
  let inFence = false;
  let pendingMarkers: string[] = [];
  let current: { start: number; lines: string[]; bullet: boolean; indent: number; markers: string[] } | null = null;

  const finish = () => {
    if (current) found(current.start, current.lines, heading, current.bullet, current.markers);
    current = null;
  };

  lines.forEach((line, index) => {
    const lineNo = index + 1;
    if (FENCE.test(line)) {
      finish();
      inFence = !inFence;
      return;
    }
    if (inFence) return;
    const headingMatch = HEADING.exec(line);
    if (headingMatch) {
      finish();
      heading = headingMatch[2]!.trim() || null;
      pendingMarkers = [];
      return;
    }
    if (line.trim() === '') {
      finish();
      return;
    }
    if (COMMENT_LINE.test(line)) {
      finish();
      pendingMarkers.push(line.trim());
      return;
    }
    const bullet = BULLET.exec(line);
    if (bullet) {
      finish();
      current = { start: lineNo, lines: [line], bullet: true, indent: bullet[1]!.length, markers: pendingMarkers };
      pendingMarkers = [];
      return;
    }
    const indent = /^\s*/.exec(line)![0].length;
    if (current && current.bullet && indent > current.indent) {
      current.lines.push(line);
      return;
    }
    // A paragraph line is its own entry: daily notes are written a fact per line.
    finish();
    current = { start: lineNo, lines: [line], bullet: false, indent, markers: pendingMarkers };
    pendingMarkers = [];
    finish();
  });
  finish();
}

function buildEntry(start: number, lines: string[], heading: string | null, bullet: boolean, markers: string[]): MarkdownEntry {
  const raw = lines.join('\n');
  const annotations = readAnnotations([...markers, raw].join('\n'));
  const body = entryBody(raw);
  return { startLine: start, endLine: start + lines.length - 1, raw, body, heading, bullet, annotations };
}

/** The entry's words: no bullet, no HTML comments, no `[score=…]` metadata, whitespace collapsed. */
export function entryBody(raw: string): string {
  const joined = raw
    .split('\n')
    .map((l, i) => (i === 0 ? l.replace(BULLET, '') : l))
    .join(' ')
    .replace(COMMENT, ' ');
  // Asked first: the metadata pattern is tried at every position of every entry.
  return (joined.includes('[score=') ? joined.replace(TRAILING_METADATA, '') : joined).replace(/\s+/g, ' ').trim();
}

export function readAnnotations(text: string): EntryAnnotations {
  const result: EntryAnnotations = { triggers: [], importance: null, project: null, observed: null, status: null, promotionKeys: [], lineageKeys: [] };
  for (const match of text.matchAll(COMMENT)) {
    const inner = match[1]!.trim();
    const colon = inner.indexOf(':');
    if (colon < 0) continue;
    const name = inner.slice(0, colon).trim().toLowerCase();
    const value = inner.slice(colon + 1).trim();
    if (name === 'trigger') result.triggers.push(...value.split(/[,;|]/).map((t) => t.trim()).filter(Boolean));
    else if (name === 'importance' && Number.isFinite(Number(value))) result.importance = Number(value);
    else if (name === 'project') result.project = value || null;
    else if (name === 'observed') result.observed = value || null;
    else if (name === 'status') result.status = value === 'active' || value === 'superseded' ? value : null;
    else if (name === 'openclaw-memory-promotion') result.promotionKeys.push(value);
    else if (name === 'openclaw-memory-lineage') result.lineageKeys.push(value);
  }
  return result;
}

/** Case, punctuation, diacritics and spacing folded: two entries that say the same thing compare equal. */
export function normalizeEntryText(text: string): string {
  return entryBody(text)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/source:\s*\S+#l\d+(?:-l\d+)?/g, ' ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
