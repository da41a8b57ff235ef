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
    'core/src/index/db.ts': "import Database from 'better-sqlite3';\n",
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
});
