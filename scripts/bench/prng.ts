/** Deterministic pseudo-random numbers for the benchmark corpus (mulberry32). */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Uniform pick. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.int(items.length)]!;
  }

  /**
   * Zipf-like pick (density ~ 1/rank): the first items are very common, the tail is rare.
   * Inverse CDF of the continuous 1/x law over [1, n + 1).
   */
  zipf<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('zipf pick from an empty list');
    const i = Math.floor(Math.exp(this.next() * Math.log(items.length + 1))) - 1;
    return items[Math.min(items.length - 1, Math.max(0, i))]!;
  }

  /** Uniform pick from the rarest `share` of a Zipf-ordered list. */
  tail<T>(items: readonly T[], share = 0.5): T {
    const from = Math.floor(items.length * (1 - share));
    return items[from + this.int(items.length - from)]!;
  }
}
