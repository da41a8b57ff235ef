import { LruCache } from '../platform/lruCache.js';

/**
 * Answers of recent searches, for agents that ask the same question again (a hook on every
 * prompt, ten clients in a loop). An answer is given back only while the stamp it was made
 * under still holds (the stamp names everything the answer depends on: index writes, vectors'
 * generation, settings) and for at most `ttlMs` (recency weights move with the clock).
 */
export class SearchResultCache<V> {
  private readonly answers: LruCache<string, { stamp: string; at: number; value: V }>;

  constructor(
    capacity: number,
    private readonly ttlMs: number,
  ) {
    this.answers = new LruCache(capacity);
  }

  get(key: string, stamp: string, now = performance.now()): V | undefined {
    const found = this.answers.get(key);
    if (!found || found.stamp !== stamp || now - found.at > this.ttlMs) return undefined;
    return found.value;
  }

  set(key: string, stamp: string, value: V, now = performance.now()): void {
    this.answers.set(key, { stamp, at: now, value });
  }

  clear(): void {
    this.answers.clear();
  }
}
