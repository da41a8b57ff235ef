/**
 * Finds the MEMORY.md entries a model's operations name as prior entries. Matching is by
 * normalised entry text, so the model may drop the bullet, annotations or Source reference,
 * but cannot name an entry that is not in the file. Each entry can be claimed only once.
 */
import { normalizeEntryText, parseMarkdownEntries, type MarkdownEntry } from '../../workspace/markdownEntries.js';
import type { ConsolidationOperation } from '../types.js';

export type PriorEntryMatch =
  | { ok: true; entries: MarkdownEntry[]; priorByCandidate: Map<string, MarkdownEntry[]> }
  | { ok: false; reason: string };

export function matchPriorEntries(memoryText: string, operations: readonly ConsolidationOperation[]): PriorEntryMatch {
  const entries = parseMarkdownEntries(memoryText);
  const claimed = new Set<MarkdownEntry>();
  const priorByCandidate = new Map<string, MarkdownEntry[]>();
  for (const operation of operations) {
    const matched: MarkdownEntry[] = [];
    for (const prior of operation.priorEntries) {
      const wanted = normalizeEntryText(prior);
      // Identical duplicates in the file are claimed one by one, in file order.
      const candidates = wanted === '' ? [] : entries.filter((entry) => normalizeEntryText(entry.body) === wanted);
      const entry = candidates.find((e) => !claimed.has(e));
      if (!entry) {
        const why = candidates.length > 0 ? 'is named by more than one operation' : 'is not an entry of MEMORY.md';
        return { ok: false, reason: `candidate ${operation.candidateKey}: prior entry "${prior.slice(0, 120)}" ${why}` };
      }
      claimed.add(entry);
      matched.push(entry);
    }
    priorByCandidate.set(operation.candidateKey, matched);
  }
  return { ok: true, entries, priorByCandidate };
}
