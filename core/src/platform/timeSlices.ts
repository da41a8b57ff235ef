/**
 * Long write work (indexing, graph extraction) runs on the engine's one thread, which also
 * answers the window and agents. It is cut into transactions of about SLICE_MS each, with a
 * turn of the event loop in between, so a call waits at most about one slice.
 */
export const SLICE_MS = 10;
/**
 * Longest a slice boundary waits for foreground work to finish, so background work keeps at
 * least ~30% of the thread under a sustained load of searches.
 */
const MAX_FOREGROUND_WAIT_MS = 25;

let foregroundInFlight = 0;
const foregroundDone = new Set<() => void>();

/**
 * Marks work someone is waiting for that runs elsewhere (a search on a worker thread) but
 * ends on this thread. Background slices do not start while it runs: on two cores a slice
 * would take the worker's core and delay the answer twice (once computing, once waiting for
 * the slice to end before this thread takes the answer).
 */
export function asForeground<T>(work: Promise<T>): Promise<T> {
  foregroundInFlight++;
  return work.finally(() => {
    if (--foregroundInFlight > 0) return;
    // After a turn: whoever waited for the foreground work finishes with it first.
    setImmediate(() => {
      if (foregroundInFlight > 0) return;
      for (const resume of foregroundDone) resume();
    });
  });
}

/** A turn of the event loop, then (briefly, see MAX_FOREGROUND_WAIT_MS) room for foreground work in flight. */
export async function yieldToEventLoop(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  if (foregroundInFlight === 0) return;
  await new Promise<void>((resolve) => {
    const resume = (): void => {
      clearTimeout(timer);
      foregroundDone.delete(resume);
      resolve();
    };
    const timer = setTimeout(resume, MAX_FOREGROUND_WAIT_MS);
    foregroundDone.add(resume);
  });
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
