import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'check-boundaries.mjs');
let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function tree(files: Record<string, string>): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-boundaries-'));
  for (const [p, c] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), c);
  }
  return dir;
}

const run = (root: string) => spawnSync(process.execPath, [script, root], { encoding: 'utf8' });

describe('layer boundary check', () => {
  const base = {
    'core/src/contract/index.ts': "import { z } from 'zod';\nexport const x = z.string();\n",
    'core/src/index/db.ts': "import Database from 'better-sqlite3';\nimport { x } from '../contract/index.js';\nimport { h } from '../platform/hash.js';\n",
    'core/src/platform/hash.ts': "export const h = 1;\n",
    'core/src/dreaming/sweep.ts': "import { db } from '../index/db.js';\n",
    'core/src/graph/graph.ts': "export const g = 1;\n",
    'renderer/src/App.tsx': "import { x } from '../../core/src/contract/index.js';\nimport { create } from 'zustand';\n",
    'electron/main/main.ts': "import type * as C from '../../core/src/contract/index.js';\n",
  };

  it('passes a tree that respects the layers', () => {
    expect(run(tree(base)).status).toBe(0);
  });

  it('fails when core imports electron or react, or uses the DOM', () => {
    const r = run(tree({ ...base, 'core/src/bad.ts': "import { app } from 'electron';\nimport React from 'react';\nexport const w = window.location;\n" }));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('core/src/bad.ts imports "electron"');
    expect(r.stderr).toContain('core/src/bad.ts imports "react"');
    expect(r.stderr).toContain('uses a DOM global');
  });

  it('fails when the renderer imports engine code other than the contract', () => {
    const r = run(tree({ ...base, 'renderer/src/bad.ts': "import { x } from '../../core/src/index/db.js';\n" }));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('renderer/src/bad.ts imports core/src/index/db.ts');
  });

  it('fails on an import upward in the ranks: index importing dreaming', () => {
    const r = run(tree({ ...base, 'core/src/index/chunker.ts': "import { sweep } from '../dreaming/sweep.js';\n" }));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('core/src/index/chunker.ts imports core/src/dreaming/sweep.ts: index (rank 3) must not import dreaming (rank 5, higher)');
  });

  it('fails on an import sideways within a rank, and on a folder without a rank', () => {
    const r = run(tree({ ...base, 'core/src/graph/bad.ts': "import { sweep } from '../dreaming/sweep.js';\n", 'core/src/utils/x.ts': 'export const u = 1;\n' }));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('core/src/graph/bad.ts imports core/src/dreaming/sweep.ts: graph and dreaming share rank 5');
    expect(r.stderr).toContain('folder core/src/utils has no rank');
  });

  it('sees dynamic imports and worker URLs, not only static imports', () => {
    const r = run(tree({ ...base, 'core/src/platform/late.ts': "export const w = new URL('../graph/graph.js', import.meta.url);\nexport const m = () => import('../index/db.js');\n" }));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('core/src/platform/late.ts imports core/src/graph/graph.ts');
    expect(r.stderr).toContain('core/src/platform/late.ts imports core/src/index/db.ts');
  });
});
