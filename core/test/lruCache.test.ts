import { describe, expect, it } from 'vitest';
import { LruCache } from '../src/platform/lruCache.js';

describe('LruCache', () => {
  it('keeps at most its capacity, dropping the least recently used entry', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // a is now the most recent
    cache.set('c', 3);
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
  });

  it('replaces a value without growing, and empties on clear', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('a', 5);
    expect(cache.size).toBe(1);
    expect(cache.get('a')).toBe(5);
    cache.clear();
    expect(cache.get('a')).toBeUndefined();
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new LruCache(0)).toThrow(/positive integer/);
  });
});
