/**
 * Runs the graph layout in a module worker so the page keeps painting while ForceAtlas2 works;
 * where there is no `Worker` (Node, a test) or the worker fails to start, on the calling thread
 * instead, with the same result (the layout is a pure function of its input).
 */
import { computeLayout, type LayoutInput, type LayoutRequest, type LayoutResponse, type LayoutResult } from './graphLayout.js';

/** The part of a `Worker` this module uses (a test can pass a fake). */
export interface LayoutWorker {
  postMessage(message: LayoutRequest): void;
  addEventListener(type: 'message', listener: (event: { data: LayoutResponse }) => void): void;
  addEventListener(type: 'error', listener: (event: { message?: string }) => void): void;
  terminate(): void;
}

export interface PlacedLayout extends LayoutResult {
  /** Where it ran: 'main' when there was no worker or the worker failed. */
  thread: 'worker' | 'main';
}

export interface LayoutRunner {
  layout(input: LayoutInput): Promise<PlacedLayout>;
  dispose(): void;
}

function defaultWorker(): LayoutWorker | null {
  if (typeof Worker === 'undefined') return null;
  // A same-origin module worker: allowed by `worker-src 'self'` (Electron) and `default-src 'self'` (reverie serve).
  return new Worker(new URL('./layoutWorker.ts', import.meta.url), { type: 'module', name: 'graph-layout' }) as unknown as LayoutWorker;
}

/** One worker, started on first use and reused; answers are matched to requests by id. */
export function createLayoutRunner(createWorker: () => LayoutWorker | null = defaultWorker): LayoutRunner {
  let worker: LayoutWorker | null = null;
  /** Once a worker failed (CSP, missing file), every later layout runs on the calling thread. */
  let isWorkerBroken = false;
  let nextId = 0;
  const pending = new Map<number, { input: LayoutInput; resolve(layout: PlacedLayout): void; reject(error: Error): void }>();

  const onThisThread = (input: LayoutInput): PlacedLayout => ({ ...computeLayout(input), thread: 'main' });

  function failAll(reason: string): void {
    isWorkerBroken = true;
    worker?.terminate();
    worker = null;
    console.warn(`graph layout worker failed (${reason}); laying out on the main thread`);
    for (const [id, request] of pending) {
      pending.delete(id);
      try {
        request.resolve(onThisThread(request.input));
      } catch (error) {
        request.reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }

  function started(): LayoutWorker | null {
    if (worker || isWorkerBroken) return worker;
    try {
      worker = createWorker();
    } catch (error) {
      isWorkerBroken = true;
      console.warn(`graph layout worker could not start: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
    if (!worker) {
      isWorkerBroken = true;
      return null;
    }
    worker.addEventListener('message', ({ data }) => {
      const request = pending.get(data.id);
      if (!request) return;
      pending.delete(data.id);
      if (data.ok) request.resolve({ ...data.result, thread: 'worker' });
      else request.reject(new Error(data.error));
    });
    worker.addEventListener('error', (event) => failAll(event.message ?? 'error'));
    return worker;
  }

  return {
    layout(input) {
      const target = started();
      if (!target) return Promise.resolve().then(() => onThisThread(input));
      return new Promise<PlacedLayout>((resolve, reject) => {
        const id = ++nextId;
        pending.set(id, { input, resolve, reject });
        target.postMessage({ id, input });
      });
    },
    dispose() {
      worker?.terminate();
      worker = null;
      pending.clear();
    },
  };
}
