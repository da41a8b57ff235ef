/** A tiny typed event emitter in VS Code's style: `onDidX(listener)` returns a disposer. */
export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  readonly event = (listener: (value: T) => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch {
        // A failing listener must not break the engine or other listeners.
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
