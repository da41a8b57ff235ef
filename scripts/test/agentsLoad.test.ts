import { describe, expect, it } from 'vitest';
import { runAgentsBench } from '../bench/agents.js';

describe('agent socket under load', () => {
  it('answers 10 and 50 closed-loop search clients without errors (p95 ≤ 50 ms at 10) and keeps 1,000 concurrent stores whole', async () => {
    const figures = await runAgentsBench(true);
    expect(figures.agents_chunks).toBeGreaterThanOrEqual(2_000);
    expect(figures.agents_requests_10).toBeGreaterThan(0);
    expect(figures.agents_errors_10).toBe(0);
    expect(figures.agents_requests_50).toBeGreaterThan(0);
    expect(figures.agents_errors_50).toBe(0);
    expect(figures.agents_store_notes).toBe(1_000);
    expect(figures.agents_store_missing_or_duplicated).toBe(0);
    expect(figures.agents_store_torn_lines).toBe(0);
    // Last: the one figure that depends on the machine's speed and load.
    expect(figures.agents_search_p95_ms_10).toBeLessThanOrEqual(50);
  }, 90_000);
});
