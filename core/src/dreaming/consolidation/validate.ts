/**
 * Accepts a model's consolidation only when code can vouch for it: one operation per
 * candidate, the exact entry and Source reference, merges of the same fact, supersession
 * within a lineage, at most a quarter of MEMORY.md's entries removed, and the file within
 * its budget. Any failure names the candidate and the rule; the caller then falls back.
 */
import { normalizeEntryText, type MarkdownEntry } from '../../workspace/markdownEntries.js';
import { isSameLineage } from '../lineage.js';
import type { ConsolidationOperation } from '../types.js';
import { readOperations } from './answerShape.js';
import { applyConsolidation } from './apply.js';
import { expectedEntryLine, isExpectedEntry } from './expected.js';
import { matchPriorEntries } from './priorEntries.js';
import type { ConsolidationCandidate, ConsolidationInput } from './prompt.js';

/** More of MEMORY.md than this removed in one run looks like a model rewriting the file, not consolidating it. */
export const MAX_LOST_ENTRY_FRACTION = 0.25;

export type ConsolidationVerdict = { ok: true; operations: ConsolidationOperation[] } | { ok: false; reason: string };

function sameLineage(candidate: ConsolidationCandidate, entry: MarkdownEntry): boolean {
  return entry.annotations.lineageKeys.includes(candidate.lineageKey) || isSameLineage(candidate.text, entry.body);
}

function checkCoverage(candidates: readonly ConsolidationCandidate[], operations: readonly ConsolidationOperation[]): string | null {
  const known = new Set(candidates.map((c) => c.candidateKey));
  const seen = new Set<string>();
  for (const op of operations) {
    if (!known.has(op.candidateKey)) return `operation for unknown candidate ${op.candidateKey}`;
    if (seen.has(op.candidateKey)) return `candidate ${op.candidateKey} has more than one operation`;
    seen.add(op.candidateKey);
  }
  const missing = candidates.find((c) => !seen.has(c.candidateKey));
  return missing ? `candidate ${missing.candidateKey} has no operation` : null;
}

function checkOperation(
  candidate: ConsolidationCandidate,
  op: ConsolidationOperation,
  priors: readonly MarkdownEntry[],
  entries: readonly MarkdownEntry[],
): string | null {
  const key = candidate.candidateKey;
  if (!isExpectedEntry(candidate, op.resultEntry)) {
    return `candidate ${key}: resultEntry is not the exact entry and Source reference expected ("${expectedEntryLine(candidate)}")`;
  }
  const fact = normalizeEntryText(candidate.text);
  if (op.action === 'added') {
    if (priors.length > 0) return `candidate ${key}: an added entry must not name prior entries`;
    // Adding a fact MEMORY.md already states would duplicate it: that is a merge.
    if (entries.some((e) => normalizeEntryText(e.body) === fact)) return `candidate ${key}: added, but MEMORY.md already has this fact`;
    return null;
  }
  if (priors.length === 0) return `candidate ${key}: a ${op.action} entry must name the prior entries it replaces`;
  for (const prior of priors) {
    if (op.action === 'merged' && normalizeEntryText(prior.body) !== fact && !sameLineage(candidate, prior)) {
      return `candidate ${key}: merged with "${prior.body.slice(0, 120)}", which is a different fact`;
    }
    if (op.action === 'superseded' && !sameLineage(candidate, prior)) {
      return `candidate ${key}: supersedes "${prior.body.slice(0, 120)}", which is not in its lineage (${candidate.lineageKey})`;
    }
  }
  return null;
}

export function validateConsolidation(input: ConsolidationInput, output: unknown): ConsolidationVerdict {
  const shape = readOperations(output);
  if (!shape.ok) return shape;
  const { operations } = shape;
  const coverage = checkCoverage(input.candidates, operations);
  if (coverage) return { ok: false, reason: coverage };

  const match = matchPriorEntries(input.memoryText, operations);
  if (!match.ok) return match;
  const byKey = new Map(operations.map((op) => [op.candidateKey, op]));
  for (const candidate of input.candidates) {
    const op = byKey.get(candidate.candidateKey)!;
    const problem = checkOperation(candidate, op, match.priorByCandidate.get(op.candidateKey) ?? [], match.entries);
    if (problem) return { ok: false, reason: problem };
  }

  const lost = [...match.priorByCandidate.values()].reduce((sum, priors) => sum + priors.length, 0);
  if (lost > 0 && lost > match.entries.length * MAX_LOST_ENTRY_FRACTION) {
    return { ok: false, reason: `${lost} of MEMORY.md's ${match.entries.length} entries would be removed (more than 25%)` };
  }
  const edit = applyConsolidation(input.memoryText, input, operations, input.day);
  if (edit.text.length > input.budgetChars) {
    return { ok: false, reason: `MEMORY.md would be ${edit.text.length} characters, over its budget of ${input.budgetChars}` };
  }
  return { ok: true, operations };
}
