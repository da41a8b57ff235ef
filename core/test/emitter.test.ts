import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Emitter } from '../src/platform/events.js';
import { EngineLog } from '../src/platform/log/engineLog.js';
import { setProcessLogDestination } from '../src/platform/log/processLog.js';

let cleanup: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

describe('Emitter', () => {
  it('reports a failing listener to its reporter, and the other listeners still hear the event', () => {
    const reported: unknown[] = [];
    const emitter = new Emitter<number>({ onListenerError: (error) => reported.push(error) });
    const heard: string[] = [];
    emitter.event((n) => heard.push(`first ${n}`));
    emitter.event(() => {
      throw new Error('listener broke');
    });
    emitter.event((n) => heard.push(`last ${n}`));
    emitter.fire(7);
    expect(heard).toEqual(['first 7', 'last 7']);
    expect(reported).toEqual([expect.objectContaining({ message: 'listener broke' })]);
  });

  it('without a reporter, a failing listener is an error in the process log', async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-emitter-'));
    const log = new EngineLog({ dir: path.join(base, 'logs') });
    cleanup.push(() => fs.rmSync(base, { recursive: true, force: true }), () => log.close(), setProcessLogDestination(log));
    const emitter = new Emitter<string>();
    emitter.event(() => {
      throw new TypeError('cannot read the event');
    });
    expect(() => emitter.fire('index-ready')).not.toThrow();
    const [record] = await log.recent(5);
    expect(record).toMatchObject({ level: 'error', area: 'events', message: 'An event listener failed', error: { name: 'TypeError', message: 'cannot read the event' } });
  });

  it('a reporter that throws itself is logged too, and never reaches the code that fired', async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-emitter-'));
    const log = new EngineLog({ dir: path.join(base, 'logs') });
    cleanup.push(() => fs.rmSync(base, { recursive: true, force: true }), () => log.close(), setProcessLogDestination(log));
    const emitter = new Emitter<string>({
      onListenerError: () => {
        throw new Error('reporter broke');
      },
    });
    emitter.event(() => {
      throw new Error('listener broke');
    });
    expect(() => emitter.fire('x')).not.toThrow();
    const [record] = await log.recent(5);
    expect(record).toMatchObject({ area: 'events', error: { message: 'listener broke' }, fields: { reporterError: 'Error: reporter broke' } });
  });
});
