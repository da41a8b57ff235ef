import { describe, expect, it } from 'vitest';
import { runDreamingBench } from '../bench/dreaming.js';

describe('dreaming at scale', () => {
  it('sweeps 30 days × 50 notes/day with 20k recall signals from real searches (fallback writer); its time is a bench figure', async () => {
    const figures = await runDreamingBench(false);
    expect(figures.dream_notes).toBe(1500);
    expect(figures.dream_signals).toBeGreaterThanOrEqual(20_000);
    expect(figures.dream_promoted).toBeLessThanOrEqual(10);
    expect(figures.dream_candidates).toBeGreaterThan(100);
  }, 120_000);
});
