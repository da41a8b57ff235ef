import type { OperationHandlers, OperationName } from '../contract/index.js';

/**
 * Operations that write the index outside a sync (their lines' provenance, `forget`): while the
 * one-time compaction after an upgrade holds the index's write lock they wait for it to end
 * (`IndexService.whenWritable`) instead of failing after SQLite's 10 s busy timeout.
 */
export const INDEX_WRITES_OUTSIDE_SYNC = ['forget', 'memory.store', 'memory.update', 'memory.forget', 'agents.decideProposal', 'import.apply', 'dream.run'] as const satisfies readonly OperationName[];

/** The handlers, those of `INDEX_WRITES_OUTSIDE_SYNC` waiting until the index takes writes. */
export function writesWaitForCompaction(handlers: OperationHandlers, whenWritable: () => Promise<void>): OperationHandlers {
  const wrapped: Partial<OperationHandlers> = {};
  for (const name of INDEX_WRITES_OUTSIDE_SYNC) {
    const handler = handlers[name] as (input: unknown, context: unknown) => Promise<unknown>;
    (wrapped as Record<string, typeof handler>)[name] = async (input, context) => {
      await whenWritable();
      return handler(input, context);
    };
  }
  return { ...handlers, ...wrapped };
}
