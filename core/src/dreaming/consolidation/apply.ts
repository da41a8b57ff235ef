/**
 * Writes an accepted consolidation into MEMORY.md's text: prior entries that were merged or
 * superseded are removed (with the marker comments directly above them), and a
 * `## Consolidated Memory (<day>)` section is appended in OpenClaw's format. Every other line
 * is left exactly as it was.
 */
import type { MarkdownEntry } from '../../workspace/markdownEntries.js';
import type { ConsolidationOperation, TextEdit } from '../types.js';
import { writtenEntryLine } from './expected.js';
import { matchPriorEntries } from './priorEntries.js';
import type { ConsolidationInput } from './prompt.js';

export type ConsolidationEdit = TextEdit & { removed: string[] };

const COMMENT_LINE = /^\s*<!--.*-->\s*$/;

export function consolidatedSectionHeading(day: string): string {
  return `## Consolidated Memory (${day})`;
}

/** 0-based indexes of an entry's lines plus the marker comments that belong to it. */
function entryLineIndexes(lines: readonly string[], entry: MarkdownEntry): number[] {
  const indexes: number[] = [];
  for (let i = entry.startLine - 2; i >= 0 && COMMENT_LINE.test(lines[i]!); i--) indexes.unshift(i);
  for (let i = entry.startLine - 1; i < entry.endLine; i++) indexes.push(i);
  return indexes;
}

export function applyConsolidation(
  memoryText: string,
  input: ConsolidationInput,
  operations: readonly ConsolidationOperation[],
  day: string,
): ConsolidationEdit {
  const eol = memoryText.includes('\r\n') ? '\r\n' : '\n';
  const lines = memoryText.split(/\r?\n/);
  const match = matchPriorEntries(memoryText, operations);
  // Callers validate first; an unmatched prior entry here is a programming error.
  if (!match.ok) throw new Error(`applyConsolidation got operations that do not validate: ${match.reason}`);

  const removedIndexes = new Set<number>();
  for (const priors of match.priorByCandidate.values()) {
    for (const entry of priors) for (const index of entryLineIndexes(lines, entry)) removedIndexes.add(index);
  }
  const removed = [...removedIndexes].sort((a, b) => a - b).map((i) => lines[i]!);
  const kept = lines.filter((_, i) => !removedIndexes.has(i));
  while (kept.length > 0 && kept.at(-1)!.trim() === '') kept.pop();

  const byKey = new Map(operations.map((op) => [op.candidateKey, op]));
  const heading = consolidatedSectionHeading(day);
  // A second run on the same day continues the section it already wrote at the end of the file.
  const lastHeading = kept.findLast((line) => /^#{1,6}\s/.test(line));
  const added = lastHeading === heading ? [] : [heading];
  for (const candidate of input.candidates) {
    if (!byKey.has(candidate.candidateKey)) continue;
    added.push(
      `<!-- openclaw-memory-lineage:${candidate.lineageKey} -->`,
      `<!-- openclaw-memory-promotion:memory:${candidate.candidateKey} -->`,
      writtenEntryLine(candidate),
    );
  }
  const separator = added[0] === heading && kept.length > 0 ? [''] : [];
  const text = [...kept, ...separator, ...added].join(eol) + eol;
  return { text, added, changed: [], removed };
}
