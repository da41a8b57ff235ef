import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyImport } from '../src/importers/apply.js';
import { planImport } from '../src/importers/plan.js';

let dir: string;
let home: string;
const FILES = 2000;
const FILE_BYTES = 25 * 1024; // 2,000 × 25 KB = 50 MB

beforeAll(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-import-scale-')));
  home = path.join(dir, 'codex-home');
  const summaries = path.join(home, 'memories', 'rollout_summaries');
  fs.mkdirSync(summaries, { recursive: true });
  fs.mkdirSync(path.join(dir, 'workspace'));
  for (let i = 0; i < FILES; i++) {
    const head = `# Rollout ${i}\n`;
    const line = `- note ${i}: the migration check passed after renaming the newer file.\n`;
    const body = line.repeat(Math.ceil(FILE_BYTES / line.length)).slice(0, FILE_BYTES - head.length);
    fs.writeFileSync(path.join(summaries, `rollout-${String(i).padStart(4, '0')}.md`), head + body);
  }
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('import figures', () => {
  it('plans and applies 2,000 Markdown files (50 MB) in ≤ 10 s; a repeat apply takes ≤ 1 s and copies 0', async () => {
    const options = { workspaceRoot: path.join(dir, 'workspace'), dataDir: path.join(dir, 'data') };
    const t0 = performance.now();
    const plan = await planImport({ workspaceRoot: options.workspaceRoot, sources: [{ tool: 'codex', home }] });
    const t1 = performance.now();
    const first = await applyImport(plan, options);
    const t2 = performance.now();
    expect(plan.items.reduce((sum, i) => sum + i.size, 0)).toBe(FILES * FILE_BYTES);
    expect(first).toMatchObject({ outcome: 'completed', copied: FILES, skipped: 0 });

    const t3 = performance.now();
    // One step (`reverie import apply` without --plan): the plan is fresh, so it is not re-planned.
    const fresh = await planImport({ workspaceRoot: options.workspaceRoot, sources: [{ tool: 'codex', home }] });
    const again = await applyImport(fresh, { ...options, verifyFingerprint: false });
    const t4 = performance.now();
    expect(again).toMatchObject({ copied: 0, unchanged: FILES });
    const secondApplyOnly = performance.now();
    const third = await applyImport(plan, options);
    const t5 = performance.now();
    expect(third.copied).toBe(0);

    console.log(
      `[import figures] plan ${(t1 - t0).toFixed(0)} ms + apply ${(t2 - t1).toFixed(0)} ms = ${(t2 - t0).toFixed(0)} ms for ${FILES} files / 50 MB; ` +
        `repeat plan+apply in one step ${(t4 - t3).toFixed(0)} ms; repeat apply of the saved plan (fingerprint re-checked) ${(t5 - secondApplyOnly).toFixed(0)} ms; both copied 0`,
    );
    expect(t2 - t0).toBeLessThanOrEqual(10_000);
    expect(t4 - t3).toBeLessThanOrEqual(1_000);
    expect(t5 - secondApplyOnly).toBeLessThanOrEqual(1_000);
  }, 60_000);
});
