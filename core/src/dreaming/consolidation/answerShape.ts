/** Reads the model's JSON into operations, naming the first field that has the wrong shape. */
import type { ConsolidationAction, ConsolidationOperation } from '../types.js';

const ACTIONS: ReadonlySet<string> = new Set<ConsolidationAction>(['added', 'merged', 'superseded']);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function readOperations(output: unknown): { ok: true; operations: ConsolidationOperation[] } | { ok: false; reason: string } {
  if (!isRecord(output) || !Array.isArray(output.operations)) return { ok: false, reason: 'the answer has no "operations" array' };
  const operations: ConsolidationOperation[] = [];
  for (const [index, item] of output.operations.entries()) {
    const where = `operations[${index}]`;
    if (!isRecord(item)) return { ok: false, reason: `${where} is not an object` };
    const { candidateKey, action, resultEntry, priorEntries } = item;
    if (typeof candidateKey !== 'string') return { ok: false, reason: `${where}.candidateKey is not a string` };
    if (typeof action !== 'string' || !ACTIONS.has(action)) return { ok: false, reason: `${where}.action is not added, merged or superseded` };
    if (typeof resultEntry !== 'string') return { ok: false, reason: `${where}.resultEntry is not a string` };
    if (!Array.isArray(priorEntries) || !priorEntries.every((p): p is string => typeof p === 'string')) {
      return { ok: false, reason: `${where}.priorEntries is not an array of strings` };
    }
    operations.push({ candidateKey, action: action as ConsolidationAction, resultEntry, priorEntries: [...priorEntries] });
  }
  return { ok: true, operations };
}
