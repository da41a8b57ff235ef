/**
 * Model consolidation end to end: ask the chat model, validate its answer, apply it. Any
 * failure returns `mode: 'fallback'` with the reason, and the caller writes deterministically.
 */
import type { ConsolidationOperation } from '../types.js';
import { applyConsolidation, type ConsolidationEdit } from './apply.js';
import { runModelConsolidation, type ModelConsolidationRequest } from './chatProcess.js';
import { MAX_CONSOLIDATION_CANDIDATES } from './prompt.js';
import { validateConsolidation } from './validate.js';

export type ConsolidationResult =
  | { mode: 'model'; edit: ConsolidationEdit; operations: ConsolidationOperation[] }
  | { mode: 'fallback'; reason: string };

export async function consolidateWithModel(request: ModelConsolidationRequest): Promise<ConsolidationResult> {
  const { input } = request;
  if (input.candidates.length === 0) return { mode: 'fallback', reason: 'there are no candidates to consolidate' };
  if (input.candidates.length > MAX_CONSOLIDATION_CANDIDATES) {
    return { mode: 'fallback', reason: `${input.candidates.length} candidates are more than the model consolidates at once (${MAX_CONSOLIDATION_CANDIDATES})` };
  }
  try {
    const answer = await runModelConsolidation(request);
    if (!answer.ok) return { mode: 'fallback', reason: answer.reason };
    const verdict = validateConsolidation(input, answer.json);
    if (!verdict.ok) return { mode: 'fallback', reason: `the chat model's answer was rejected: ${verdict.reason}` };
    const edit = applyConsolidation(input.memoryText, input, verdict.operations, input.day);
    return { mode: 'model', edit, operations: verdict.operations };
  } catch (error) {
    // Nothing above should throw; if it does, the deterministic writer still runs.
    return { mode: 'fallback', reason: `model consolidation failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}
