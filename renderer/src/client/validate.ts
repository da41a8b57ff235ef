import {
  EngineEvent,
  operations,
  type OperationName,
  type OperationOutput,
} from '../../../core/src/contract/index.js';
import { MemoryClientError } from './clientError.js';

/** Checks a result against the contract, so a drifting engine fails loudly instead of rendering garbage. */
export function parseOutput<N extends OperationName>(name: N, result: unknown): OperationOutput<N> {
  const parsed = operations[name].output.safeParse(result);
  if (!parsed.success) {
    throw new MemoryClientError('invalid-response', `The engine's answer to ${name} does not match the contract: ${parsed.error.message}`);
  }
  return parsed.data as OperationOutput<N>;
}

/** Events that do not match the contract are dropped (and logged), never half-applied. */
export function parseEvent(payload: unknown): EngineEvent | null {
  const parsed = EngineEvent.safeParse(payload);
  if (parsed.success) return parsed.data;
  console.warn('Reverie: ignoring an event that does not match the contract', payload);
  return null;
}
