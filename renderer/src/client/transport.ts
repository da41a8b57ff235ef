import type { EngineEvent, MemoryClient } from '../../../core/src/contract/index.js';

/**
 * The contract's MemoryClient plus one signal the UI needs from a transport: whether the event
 * stream is up. After a reconnect, anything pushed while it was down may have been missed.
 */
export interface RendererMemoryClient extends MemoryClient {
  /** Fires `true` each time the event stream is (re)established, `false` when it drops. */
  onDidChangeConnection(listener: (isConnected: boolean) => void): () => void;
  readonly transport: 'electron' | 'http';
}

export type EventListener = (event: EngineEvent) => void;

/** Tiny listener set; returns an unsubscribe function. */
export class ListenerSet<T extends unknown[]> {
  private readonly listeners = new Set<(...args: T) => void>();

  add(listener: (...args: T) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  fire(...args: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(...args);
      } catch (error) {
        console.error('Reverie: an event listener failed', error);
      }
    }
  }

  get size(): number {
    return this.listeners.size;
  }
}
