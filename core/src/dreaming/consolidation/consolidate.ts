/**
 * Model consolidation end to end: ask the chat model, validate its answer, apply it. Any
 * failure returns `mode: 'fallback'` with the reason, and the caller writes deterministically.
 */
import type { ConsolidationOperation } from '../types.js';
import { applyConsolidation, type ConsolidationEdit } from './apply.js';
import { runChatModel, type ChatModelRequest, type ModelAnswer } from '../../platform/chatModel/chatProcess.js';
import { buildConsolidationPrompt, CONSOLIDATION_SCHEMA, MAX_CONSOLIDATION_CANDIDATES, type ConsolidationInput } from './prompt.js';
import { validateConsolidation } from './validate.js';

export interface ModelConsolidationRequest extends Omit<ChatModelRequest, 'prompt' | 'schema' | 'signal'> {
  input: ConsolidationInput;
}

export type ConsolidationResult =
  | { mode: 'model'; edit: ConsolidationEdit; operations: ConsolidationOperation[] }
  | { mode: 'fallback'; reason: string };

function runModelConsolidation({ input, ...request }: ModelConsolidationRequest): Promise<ModelAnswer> {
  return runChatModel({ ...request, prompt: buildConsolidationPrompt(input), schema: CONSOLIDATION_SCHEMA });
}

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
