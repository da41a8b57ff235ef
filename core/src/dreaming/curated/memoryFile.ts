import { normalizeEntryText, parseMarkdownEntries } from '../../workspace/markdownEntries.js';
import type { PromotionToWrite, TextEdit } from '../types.js';
import { isBlank, joinLines, splitLines } from './lines.js';

/**
 * MEMORY.md writer: dreaming appends promotions in OpenClaw's fallback format, so OpenClaw
 * reads (and de-duplicates) them exactly as if it had written them itself.
 */

export const MEMORY_TITLE = '# Long-Term Memory';
const PROMOTION_MARKER = /<!--\s*openclaw-memory-promotion:\s*(.*?)\s*-->/g;
/** OpenClaw namespaces promotion keys by source kind; ours are always `memory:`. */
const MARKER_NAMESPACE = 'memory:';

export function promotionHeading(day: string): string {
  return `## Promoted From Short-Term Memory (${day})`;
}

export function promotionMarker(candidateKey: string): string {
  return `<!-- openclaw-memory-promotion:${MARKER_NAMESPACE}${candidateKey} -->`;
}

/** Where a promoted entry came from, as a person would cite it: `Source: memory/2026-10-12.md#L3-L4`. */
export function sourceReference(p: { path: string; startLine: number; endLine: number }): string {
  return `Source: ${p.path}#L${p.startLine}-L${p.endLine}`;
}

/**
 * The line a promotion writes: the entry's words and where they came from, nothing else a person
 * would not write (scores and signal counts live in the run record), then its annotations; the
 * same line the chat-model path writes.
 */
export function promotionEntryLine(p: PromotionToWrite): string {
  // One line per entry: undo and supersession work on whole lines.
  const words = p.text.replace(/\s+/g, ' ').trim();
  return ['-', words, sourceReference(p), ...p.annotations.map((a) => a.trim()).filter(Boolean), ...observedUnlessNamed(p)].join(' ');
}

/**
 * The day the note was written, kept on the line when its source's name does not say it (an
 * undated notes file): a later sweep orders this entry by that day, as the sweep that wrote it did.
 */
function observedUnlessNamed(p: PromotionToWrite): string[] {
  if (!p.observedDay || /\d{4}-\d{2}-\d{2}[^/]*$/.test(p.path)) return [];
  return [`<!-- observed: ${p.observedDay} -->`];
}

/** Appends one dated promotion section; existing text is never rewritten. */
export function appendPromotionSection(memoryText: string, promotions: PromotionToWrite[], day: string): TextEdit {
  if (promotions.length === 0) return { text: memoryText, added: [], changed: [] };
  const section = [promotionHeading(day), ...promotions.flatMap((p) => [promotionMarker(p.candidateKey), promotionEntryLine(p)])];

  if (memoryText.trim() === '') {
    const text = joinLines({ lines: [MEMORY_TITLE, '', ...section], eol: '\n', finalNewline: true });
    return { text, added: [MEMORY_TITLE, ...section], changed: [] };
  }

  const split = splitLines(memoryText);
  const last = split.lines[split.lines.length - 1];
  // One blank line before the heading, unless the file already ends with one.
  const separator = last !== undefined && isBlank(last) ? [] : [''];
  const text = joinLines({ lines: [...split.lines, ...separator, ...section], eol: split.eol, finalNewline: true });
  return { text, added: section, changed: [] };
}

/** Candidate keys (`path:start:end`) already promoted into this file. */
export function promotedKeys(memoryText: string): Set<string> {
  const keys = new Set<string>();
  for (const match of memoryText.matchAll(PROMOTION_MARKER)) {
    const value = match[1]!;
    keys.add(value.startsWith(MARKER_NAMESPACE) ? value.slice(MARKER_NAMESPACE.length) : value);
  }
  // A restatement that reinforced an entry is named in its source list ("Source: a.md#L5-L5, b.md#L4-L4"):
  // it is in memory already, and a later sweep must not write it as a line of its own.
  for (const list of memoryText.matchAll(SOURCE_LIST)) {
    for (const ref of list[1]!.matchAll(SOURCE_REF)) keys.add(`${ref[1]}:${ref[2]}:${ref[3] ?? ref[2]}`);
  }
  return keys;
}

const SOURCE_LIST = /\bSource:\s*(\S+#L\d+(?:-L\d+)?(?:,\s*\S+#L\d+(?:-L\d+)?)*)/g;
const SOURCE_REF = /([^\s,#]+)#L(\d+)(?:-L(\d+))?/g;

/** Normalised entry bodies, for the "already in memory" gate. */
export function curatedFacts(text: string): Set<string> {
  const facts = new Set<string>();
  for (const entry of parseMarkdownEntries(text)) {
    const fact = normalizeEntryText(entry.body);
    if (fact !== '') facts.add(fact);
  }
  return facts;
}
