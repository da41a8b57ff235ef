import type { OperationInput, OperationName, OperationOutput } from '../../../core/src/contract/index.js';
import { MemoryClientError, errorFromPayload } from './clientError.js';
import { ListenerSet, type EventListener, type RendererMemoryClient } from './transport.js';
import { parseEvent, parseOutput } from './validate.js';

/** The transport for `reverie serve`: JSON over POST /api/<operation>, events over SSE. */
export class HttpMemoryClient implements RendererMemoryClient {
  readonly transport = 'http' as const;
  private readonly eventListeners = new ListenerSet<Parameters<EventListener>>();
  private readonly connectionListeners = new ListenerSet<[boolean]>();
  private source: EventSource | null = null;

  constructor(private readonly token: string | null) {}

  async call<N extends OperationName>(name: N, input: OperationInput<N>): Promise<OperationOutput<N>> {
    if (!this.token) {
      throw new MemoryClientError('unauthenticated', 'This page has no access token. Open the URL printed by `reverie serve` (it ends in #token=…).');
    }
    let response: Response;
    try {
      response = await fetch(`/api/${name}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${this.token}` },
        body: JSON.stringify(input),
      });
    } catch {
      throw new MemoryClientError('network', 'Cannot reach Reverie. Is `reverie serve` still running?');
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new MemoryClientError('invalid-response', `Reverie answered ${name} with HTTP ${response.status} and no JSON body.`);
    }
    const envelope = body as { ok?: unknown; result?: unknown; error?: unknown };
    if (envelope.ok === true && response.ok) return parseOutput(name, envelope.result);
    throw errorFromPayload(envelope.error, `Reverie answered ${name} with HTTP ${response.status}.`);
  }

  onEvent(listener: EventListener): () => void {
    const remove = this.eventListeners.add(listener);
    this.ensureEventStream();
    return () => {
      remove();
      if (this.eventListeners.size === 0 && this.connectionListeners.size === 0) this.closeEventStream();
    };
  }

  onDidChangeConnection(listener: (isConnected: boolean) => void): () => void {
    const remove = this.connectionListeners.add(listener);
    this.ensureEventStream();
    return () => {
      remove();
      if (this.eventListeners.size === 0 && this.connectionListeners.size === 0) this.closeEventStream();
    };
  }

  private ensureEventStream(): void {
    if (this.source || !this.token) return;
    // EventSource cannot send headers, so the token goes in the query string (same origin only).
    const source = new EventSource(`/api/events?token=${encodeURIComponent(this.token)}`);
    // EventSource reconnects by itself; every `open` (first or after a drop) means events may have been missed.
    source.addEventListener('open', () => this.connectionListeners.fire(true));
    // While retrying, readyState is CONNECTING; a refused stream (e.g. a stale token) ends CLOSED.
    source.addEventListener('error', () => this.connectionListeners.fire(false));
    source.addEventListener('message', (message: MessageEvent<string>) => {
      let payload: unknown;
      try {
        payload = JSON.parse(message.data);
      } catch {
        console.warn('Reverie: ignoring a malformed event', message.data);
        return;
      }
      const event = parseEvent(payload);
      if (event) this.eventListeners.fire(event);
    });
    this.source = source;
  }

  private closeEventStream(): void {
    this.source?.close();
    this.source = null;
  }
}
