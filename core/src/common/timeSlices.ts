/**
 * Long write work (indexing, graph extraction) runs on the engine's one thread, which also
 * answers the window and agents. It is cut into transactions of about SLICE_MS each, with a
 * turn of the event loop in between, so a call waits at most about one slice.
 */
export const SLICE_MS = 10;

export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Processes `items` (an array, or a generator of steps) in order inside `transaction`s of about `budgetMs` each (at least one item
 * per transaction), yielding between them. Returns how many items were processed: fewer than
 * all when `shouldStop` said so between slices.
 */
export async function inTimeSlices<T>(
  items: Iterable<T>,
  transaction: (work: () => void) => void,
  step: (item: T) => void,
  options: { budgetMs?: number; shouldStop?: () => boolean } = {},
): Promise<number> {
  const budget = options.budgetMs ?? SLICE_MS;
  const iterator = items[Symbol.iterator]();
  let current = iterator.next();
  let done = 0;
  while (!current.done) {
    if (options.shouldStop?.()) break;
    const started = performance.now();
    transaction(() => {
      do {
        step(current.value as T);
        done++;
        current = iterator.next();
      } while (!current.done && performance.now() - started < budget);
    });
    if (!current.done) await yieldToEventLoop();
  }
  return done;
}
