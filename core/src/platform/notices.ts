/**
 * Messages for the person from any part of the engine (a model that could not load, an index
 * rebuilt after corruption, …): `status` lists them, and the next sync report tells them once.
 */
export class Notices {
  private readonly pending: string[] = [];

  push(...messages: string[]): void {
    this.pending.push(...messages);
  }

  /** The notices now; they stay. */
  list(): string[] {
    return [...this.pending];
  }

  /** The notices now, removed: a sync report hands them on. */
  take(): string[] {
    return this.pending.splice(0);
  }
}
