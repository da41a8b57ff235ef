import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DreamRun, OperationInput } from '../../core/src/contract/index.js';
import { reviewKey, rollbackKey } from '../src/store/dreamsSlice.js';
import { createReverieStore } from '../src/store/store.js';
import { UNDO_WINDOW_MS, quoteForToast } from '../src/store/undoSlice.js';
import { createFakeClient } from './fakeClient.js';

const CANDIDATE_KEY = 'memory/2026-11-28.md:3:3';

/** The parts of a run the review and rollback buttons read; the rest does not matter to them. */
function dreamRun(over: Partial<DreamRun> = {}): DreamRun {
  return {
    id: 'dream:42',
    dryRun: false,
    rolledBack: null,
    candidates: [{ key: CANDIDATE_KEY, text: 'ledgerd-staging runs on the old VPN box until the migration in January.' }],
    promoted: [{ candidateKey: CANDIDATE_KEY, target: 'MEMORY.md', decision: 'auto', lines: ['- ledgerd-staging runs on the old VPN box'] }],
    ...over,
  } as unknown as DreamRun;
}

/** A window whose dream writes are recorded; everything the Dreams view reloads afterwards answers empty. */
function dreamsWindow(answer: boolean) {
  const reviews: Array<OperationInput<'dream.review'>> = [];
  const rollbacks: string[] = [];
  const questions: string[] = [];
  const client = createFakeClient({
    'dream.get': async () => dreamRun(),
    'dream.review': async (input) => {
      reviews.push(input);
      return dreamRun();
    },
    'dream.rollback': async ({ runId }) => {
      rollbacks.push(runId);
      return dreamRun({ rolledBack: { at: '2026-12-06T20:00:00.000Z', mode: 'lines-removed' } });
    },
    'dream.runs': async () => ({ runs: [] }) as never,
    'dream.diary': async () => ({ entries: [] }) as never,
    'dream.preimages': async () => ({ preImages: [] }),
    'dream.conflicts': async () => ({ conflicts: [] }),
    'files.list': async () => ({ files: [] }),
  });
  const store = createReverieStore(client, {
    confirm: (question) => {
      questions.push(question);
      return answer;
    },
  });
  return { store, reviews, rollbacks, questions };
}

describe('undo for Reject, Rollback and Forget', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('holds a Reject for a few seconds with a toast naming it, then rejects for real', async () => {
    const { store, reviews, questions } = dreamsWindow(true);
    await store.getState().dreams.selectRun('dream:42');
    await store.getState().dreams.review(CANDIDATE_KEY, 'reject');
    expect(questions).toEqual([]);
    expect(store.getState().undo.held).toEqual({
      key: reviewKey('dream:42', CANDIDATE_KEY),
      message: 'Rejected “ledgerd-staging runs on the old VPN box until the migration…”.',
    });
    await vi.advanceTimersByTimeAsync(UNDO_WINDOW_MS - 1);
    expect(reviews).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(reviews).toEqual([{ runId: 'dream:42', candidateKey: CANDIDATE_KEY, decision: 'reject' }]);
    expect(store.getState().undo.held).toBeNull();
  });

  it('a second click on a Reject waiting for its Undo does nothing', async () => {
    const { store, reviews } = dreamsWindow(true);
    await store.getState().dreams.selectRun('dream:42');
    await store.getState().dreams.review(CANDIDATE_KEY, 'reject');
    await store.getState().dreams.review(CANDIDATE_KEY, 'reject');
    expect(reviews).toEqual([]);
    await store.getState().undo.performNow();
    expect(reviews).toHaveLength(1);
  });

  it('Undo drops the Reject: the engine is never asked', async () => {
    const { store, reviews } = dreamsWindow(true);
    await store.getState().dreams.selectRun('dream:42');
    await store.getState().dreams.review(CANDIDATE_KEY, 'reject');
    store.getState().undo.undo();
    expect(store.getState().undo.held).toBeNull();
    await vi.advanceTimersByTimeAsync(2 * UNDO_WINDOW_MS);
    expect(reviews).toEqual([]);
  });

  it('approves at once (nothing to undo: approving keeps what is there)', async () => {
    const { store, reviews } = dreamsWindow(true);
    await store.getState().dreams.selectRun('dream:42');
    await store.getState().dreams.review(CANDIDATE_KEY, 'approve');
    expect(reviews).toEqual([{ runId: 'dream:42', candidateKey: CANDIDATE_KEY, decision: 'approve' }]);
    expect(store.getState().undo.held).toBeNull();
  });

  it('asks before rolling back a whole run, and then still offers Undo', async () => {
    const refused = dreamsWindow(false);
    await refused.store.getState().dreams.rollback('dream:42');
    expect(refused.questions).toHaveLength(1);
    expect(refused.store.getState().undo.held).toBeNull();

    const { store, rollbacks, questions } = dreamsWindow(true);
    await store.getState().dreams.rollback('dream:42');
    expect(questions[0]).toMatch(/^Roll back dream run/);
    expect(store.getState().undo.held?.key).toBe(rollbackKey('dream:42'));
    expect(rollbacks).toEqual([]);
    // The toast's × does it now.
    await store.getState().undo.performNow();
    expect(rollbacks).toEqual(['dream:42']);
  });

  it('a second held action does the first one now: one toast at a time, nothing silently dropped', async () => {
    const { store, reviews, rollbacks } = dreamsWindow(true);
    await store.getState().dreams.selectRun('dream:42');
    await store.getState().dreams.review(CANDIDATE_KEY, 'reject');
    await store.getState().dreams.rollback('dream:42');
    expect(reviews).toHaveLength(1);
    expect(rollbacks).toEqual([]);
    expect(store.getState().undo.held?.key).toBe(rollbackKey('dream:42'));
  });

  it('shows a failure of the held action in the toast when nothing else reports it', async () => {
    const store = createReverieStore(createFakeClient({}), { confirm: () => true });
    await store.getState().undo.hold({ key: 'k', message: 'Did a thing.' }, async () => {
      throw new Error('The index is busy; try again.');
    });
    await vi.advanceTimersByTimeAsync(UNDO_WINDOW_MS);
    expect(store.getState().undo.error).toBe('The index is busy; try again.');
    store.getState().undo.dismissError();
    expect(store.getState().undo.error).toBeNull();
  });

  it('quotes a long entry on one short line', () => {
    expect(quoteForToast('short')).toBe('“short”');
    expect(quoteForToast('a\n  b')).toBe('“a b”');
    expect(quoteForToast('x'.repeat(100))).toBe(`“${'x'.repeat(59)}…”`);
  });
});
