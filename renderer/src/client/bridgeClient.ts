import type { OperationInput, OperationName, OperationOutput } from '../../../core/src/contract/index.js';
import { errorFromPayload, toClientError } from './clientError.js';
import { type EventListener, type RendererMemoryClient } from './transport.js';
import { parseEvent, parseOutput } from './validate.js';

/** What the Electron preload exposes as `window.reverie` (contextBridge). */
export interface ReverieBridge {
  call(name: string, input: unknown): Promise<unknown>;
  on(listener: (event: unknown) => void): () => void;
}

declare global {
  interface Window {
    reverie?: ReverieBridge;
  }
}

/** The desktop transport: the preload forwards calls over IPC to the engine process. */
export class BridgeMemoryClient implements RendererMemoryClient {
  readonly transport = 'electron' as const;

  constructor(private readonly bridge: ReverieBridge) {}

  async call<N extends OperationName>(name: N, input: OperationInput<N>): Promise<OperationOutput<N>> {
    let answer: unknown;
    try {
      answer = await this.bridge.call(name, input);
    } catch (error) {
      throw toClientError(error);
    }
    // A bridge may answer with the same envelope as HTTP ({ok, result} / {ok, error}) to keep error codes.
    if (isEnvelope(answer)) {
      if (answer.ok) return parseOutput(name, answer.result);
      throw errorFromPayload(answer.error, `The engine refused ${name}.`);
    }
    return parseOutput(name, answer);
  }

  onEvent(listener: EventListener): () => void {
    return this.bridge.on((payload) => {
      const event = parseEvent(payload);
      if (event) listener(event);
    });
  }

  /** IPC has no connection to lose: report "connected" once, right after subscribing. */
  onDidChangeConnection(listener: (isConnected: boolean) => void): () => void {
    let active = true;
    queueMicrotask(() => active && listener(true));
    return () => void (active = false);
  }
}

function isEnvelope(value: unknown): value is { ok: boolean; result?: unknown; error?: unknown } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { ok?: unknown }).ok === 'boolean' &&
    ('result' in value || 'error' in value)
  );
}
