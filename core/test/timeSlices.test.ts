import { describe, expect, it, vi } from 'vitest';
import { asForeground, inTimeSlices } from '../src/platform/timeSlices.js';

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('inTimeSlices', () => {
  it('processes every item in order, in several short transactions, answering timers in between', async () => {
    const seen: number[] = [];
    const transactions: number[][] = [];
    let timerRuns = 0;
    const timer = setInterval(() => timerRuns++, 1);
    const done = await inTimeSlices(
      Array.from({ length: 40 }, (_, i) => i),
      (work) => {
        transactions.push([]);
        work();
      },
      (item) => {
        busy(2);
        seen.push(item);
        transactions.at(-1)!.push(item);
      },
      { budgetMs: 10 },
    );
    clearInterval(timer);
    expect(done).toBe(40);
    expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(transactions.length).toBeGreaterThanOrEqual(4); // 80 ms of work in slices of ~10 ms
    expect(Math.max(...transactions.map((t) => t.length))).toBeLessThanOrEqual(8);
    expect(timerRuns).toBeGreaterThanOrEqual(Math.floor(transactions.length / 2)); // the event loop turned between slices
  });

  it('does at least one item per transaction, and stops between slices when asked', async () => {
    let slices = 0;
    const done = await inTimeSlices([1, 2, 3, 4], (work) => (slices++, work()), () => busy(3), { budgetMs: 0, shouldStop: () => slices === 2 });
    expect(done).toBe(2);
  });

  it('holds back slices while foreground work (a search on a worker) is in flight, but never for long, and lets its waiter finish first', async () => {
    // The clock is faked: what is asserted is the order of events, not how long they took.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'performance'] });
    try {
      let release!: () => void;
      const foreground = asForeground(new Promise<void>((resolve) => (release = resolve)));
      const events: string[] = [];
      const items = () => events.filter((e) => e === 'item').length;
      const run = inTimeSlices(Array.from({ length: 10 }, (_, i) => i), (work) => work(), () => events.push('item'), { budgetMs: 0 });
      await vi.advanceTimersByTimeAsync(0);
      expect(items()).toBe(1); // one item per slice (budget 0), then the slice boundary waits
      await vi.advanceTimersByTimeAsync(24);
      expect(items()).toBe(1); // held back while the foreground work runs …
      await vi.advanceTimersByTimeAsync(1);
      expect(items()).toBe(2); // … but never longer than 25 ms per boundary
      release();
      await foreground;
      events.push('foreground answered');
      await vi.runAllTimersAsync();
      expect(await run).toBe(10);
      expect(items()).toBe(10);
      expect(events.indexOf('foreground answered')).toBe(2); // no slice ran between the answer and its waiter
    } finally {
      vi.useRealTimers();
    }
  });
});
