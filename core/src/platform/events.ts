import { processLogger } from './log/processLog.js';

export interface EmitterOptions {
  /** Told when a listener throws; by default the process log records it as an error. */
  onListenerError?: (error: unknown) => void;
}

const log = processLogger('events');

/** A tiny typed event emitter in VS Code's style: `onDidX(listener)` returns a disposer. */
export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  constructor(private readonly options: EmitterOptions = {}) {}

  readonly event = (listener: (value: T) => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (error) {
        // A failing listener must not break the engine or the other listeners; it is reported.
        this.reportListenerError(error);
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }

  private reportListenerError(error: unknown): void {
    if (!this.options.onListenerError) {
      log.error('An event listener failed', { error });
      return;
    }
    try {
      this.options.onListenerError(error);
    } catch (reporterError) {
      log.error('An event listener failed, and so did its error reporter', { error, reporterError: String(reporterError) });
    }
  }
}
