import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { followLog } from '../src/platform/log/followLog.js';

let base: string;
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

describe('following the log', () => {
  it('keeps following across a rotation and the day rollover, missing no line', async () => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-follow-'));
    const dir = path.join(base, 'logs');
    fs.mkdirSync(dir);
    const dayOne = path.join(dir, 'reverie-2026-12-01.log');
    const dayTwo = path.join(dir, 'reverie-2026-12-02.log');
    fs.writeFileSync(dayOne, 'before following\n');
    let now = new Date('2026-12-01T23:00:00');
    const lines: string[] = [];
    const waiters: Array<{ count: number; resolve: () => void }> = [];
    const seen = (count: number) => new Promise<void>((resolve) => (lines.length >= count ? resolve() : waiters.push({ count, resolve })));
    const controller = new AbortController();
    const ready = new Promise<void>((resolve) => {
      void followLog(dir, {
        signal: controller.signal,
        pollMs: 5,
        now: () => now,
        onReady: resolve,
        onLine: (line) => {
          lines.push(line);
          for (const w of waiters.filter((w) => lines.length >= w.count)) w.resolve();
        },
      }).then(() => lines.push('stopped'));
    });
    await ready;

    fs.appendFileSync(dayOne, 'one\n');
    await seen(1);
    // Rotation: what was appended just before it is read from the end of `.1`.
    fs.appendFileSync(dayOne, 'two\n');
    fs.renameSync(dayOne, `${dayOne}.1`);
    fs.writeFileSync(dayOne, 'three\n');
    await seen(3);
    // Midnight: the rest of yesterday's file first, then today's from its start.
    fs.appendFileSync(dayOne, 'four\n');
    now = new Date('2026-12-02T00:00:01');
    fs.writeFileSync(dayTwo, 'five\n');
    await seen(5);
    controller.abort();
    await new Promise<void>((resolve) => {
      const check = () => (lines.at(-1) === 'stopped' ? resolve() : setTimeout(check, 5));
      check();
    });
    expect(lines).toEqual(['one', 'two', 'three', 'four', 'five', 'stopped']);
  });
});
