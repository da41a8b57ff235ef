import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * The worker module next to `callerUrl` (pass `import.meta.url`) named `name`, with the
 * caller's own extension: `.js` in the built engine, `.ts` when running from source.
 */
export function siblingModule(callerUrl: string, name: string): URL {
  return new URL(`./${name}${path.extname(fileURLToPath(callerUrl))}`, callerUrl);
}

/**
 * Starts a worker thread on an ES module. From source (tests, `REVERIE_FROM_SOURCE`), a `.ts`
 * module is loaded through tsx's loader, registered inside the worker first: loader hooks of
 * the parent thread do not reach workers on Node 20.
 */
export function startModuleWorker(entry: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, options);
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(`${boot}.catch((error) => { console.error(error); process.exit(1); });`, { ...options, eval: true });
}
