import { describe, expect, it } from 'vitest';
import type { DreamConflict } from '../../core/src/contract/index.js';
import { MemoryClientError } from '../src/client/clientError.js';
import { createReverieStore } from '../src/store/store.js';
import { createFakeClient } from './fakeClient.js';

const CONFLICT: DreamConflict = {
  id: 'conflict:0123456789abcdef',
  a: { text: 'Jun says the metrics endpoint is on port 9464.', path: 'memory/2026-10-06.md', line: 4, day: '2026-10-06' },
  b: { text: 'The wiki says the metrics endpoint listens on port 9102.', path: 'memory/2026-10-06.md', line: 3, day: '2026-10-06' },
  reason: 'shares metric, endpoint; differs in 9464, 9102',
  runId: 'dream:1',
  detectedAt: '2026-10-07T03:00:00.000Z',
  status: 'open',
  resolvedAt: null,
};

describe('Dreams → Conflicts', () => {
  it('lists open contradictions and sends the decision; the decided one leaves the list', async () => {
    const open = [CONFLICT];
    const decisions: unknown[] = [];
    const client = createFakeClient({
      'dream.conflicts': async () => ({ conflicts: [...open] }),
      'dream.resolve': async (input) => {
        decisions.push(input);
        open.splice(0, open.length);
        return { ...CONFLICT, status: input.decision, resolvedAt: '2026-10-07T09:00:00.000Z' };
      },
    });
    const store = createReverieStore(client, { confirm: () => true });
    await store.getState().dreams.loadConflicts();
    expect(store.getState().dreams.conflicts.map((c) => c.id)).toEqual([CONFLICT.id]);
    await store.getState().dreams.resolveConflict(CONFLICT.id, 'keep-a');
    expect(decisions).toEqual([{ conflictId: CONFLICT.id, decision: 'keep-a' }]);
    expect(store.getState().dreams.conflicts).toEqual([]);
    expect(store.getState().dreams.pending).toBeNull();
  });

  it('a refused decision is shown next to the conflict, which stays', async () => {
    const client = createFakeClient({
      'dream.conflicts': async () => ({ conflicts: [CONFLICT] }),
      'dream.resolve': async () => {
        throw new MemoryClientError('not-found', 'No contradiction conflict:0123456789abcdef.');
      },
    });
    const store = createReverieStore(client, { confirm: () => true });
    await store.getState().dreams.loadConflicts();
    await store.getState().dreams.resolveConflict(CONFLICT.id, 'keep-b');
    expect(store.getState().dreams.actionError).toMatchObject({ key: `resolve:${CONFLICT.id}`, message: expect.stringContaining('No contradiction') });
    expect(store.getState().dreams.conflicts).toHaveLength(1);
  });
});
