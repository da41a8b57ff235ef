import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyImport } from '../src/importers/apply.js';
import { planImport } from '../src/importers/plan.js';

let dir: string;
let home: string;
// The 2,000-file (50 MB) figure and its time goals are in `npm run bench -- --only importers`.
const FILES = 200;
const FILE_BYTES = 25 * 1024;

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

describe('importing many files', () => {
  it('plans and applies 200 Markdown files; a repeat in one step and a repeat of the saved plan copy 0', async () => {
    const options = { workspaceRoot: path.join(dir, 'workspace'), dataDir: path.join(dir, 'data') };
    const plan = await planImport({ workspaceRoot: options.workspaceRoot, sources: [{ tool: 'codex', home }] });
    const first = await applyImport(plan, options);
    expect(plan.items.reduce((sum, i) => sum + i.size, 0)).toBe(FILES * FILE_BYTES);
    expect(first).toMatchObject({ outcome: 'completed', copied: FILES, skipped: 0 });

    // One step (`reverie import apply` without --plan): the plan is fresh, so it is not re-planned.
    const fresh = await planImport({ workspaceRoot: options.workspaceRoot, sources: [{ tool: 'codex', home }] });
    const again = await applyImport(fresh, { ...options, verifyFingerprint: false });
    expect(again).toMatchObject({ copied: 0, unchanged: FILES });
    const third = await applyImport(plan, options);
    expect(third.copied).toBe(0);
  }, 60_000);
});
