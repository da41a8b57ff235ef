import type { EngineEvent, OperationInput, OperationName, OperationOutput } from '../../core/src/contract/index.js';
import type { RendererMemoryClient } from '../src/client/memoryClient.js';

type Handlers = { [N in OperationName]?: (input: OperationInput<N>) => Promise<OperationOutput<N>> };

/** A MemoryClient whose operations are whatever the test says; events are pushed by hand. */
export function createFakeClient(handlers: Handlers): RendererMemoryClient & { emit(event: EngineEvent): void } {
  const listeners = new Set<(event: EngineEvent) => void>();
  return {
    transport: 'http',
    call<N extends OperationName>(name: N, input: OperationInput<N>): Promise<OperationOutput<N>> {
      const handler = handlers[name] as ((input: OperationInput<N>) => Promise<OperationOutput<N>>) | undefined;
      if (!handler) return Promise.reject(new Error(`fake client: no handler for ${name}`));
      return handler(input);
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    onDidChangeConnection() {
      return () => undefined;
    },
    emit(event) {
      for (const listener of listeners) listener(event);
    },
  };
}

export function deferred<T>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
