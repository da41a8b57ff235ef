import type { EngineEvent } from './events.js';
import type { OperationInput, OperationName, OperationOutput } from './operations/index.js';

/** The client side of the contract: what the renderer and tests talk to. */
export interface MemoryClient {
  call<N extends OperationName>(name: N, input: OperationInput<N>): Promise<OperationOutput<N>>;
  onEvent(listener: (event: EngineEvent) => void): () => void;
}
