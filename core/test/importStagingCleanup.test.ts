import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyImport } from '../src/importers/apply.js';
import { planImport } from '../src/importers/plan.js';
import { importsDir } from '../src/importers/stagingFolders.js';
import { MemoryService } from '../src/engine/memoryService.js';
import { resolveExistingWorkspace } from '../src/workspace/resolveWorkspace.js';
import { makeImportSandbox, type ImportSandbox } from './fixtures/import-sources/sandbox.js';

let box: ImportSandbox;
beforeEach(() => {
  box = makeImportSandbox();
});
afterEach(() => box.cleanup());

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid!;
}

function leftover(name: string, files = 3): string {
  const dir = path.join(importsDir(box.workspace), name);
  fs.mkdirSync(dir, { recursive: true });
  for (let i = 0; i < files; i++) fs.writeFileSync(path.join(dir, `${i}.md`), `staged ${i}\n`);
  return dir;
}

async function importHermes(): Promise<void> {
  const plan = await planImport({ workspaceRoot: box.workspace, sources: [{ tool: 'hermes', home: box.hermesHome }], userHome: box.dir });
  const report = await applyImport(plan, { workspaceRoot: box.workspace, dataDir: box.dataDir });
  expect(report.outcome).toBe('completed');
}

describe('staging folders left by a killed import', () => {
  it('are removed by the next import when their owner process is gone', async () => {
    const killed = leftover(`.staging-20260101-000000-p${deadPid()}-abcdef`, 20);
    await importHermes();
    expect(fs.existsSync(killed)).toBe(false);
    expect(fs.readdirSync(importsDir(box.workspace)).filter((n) => n.startsWith('.staging-'))).toEqual([]);
  });

  it('are removed when the engine next starts, before any import', async () => {
    const killed = leftover(`.staging-20260101-000000-p${deadPid()}-abcdef`, 5);
    const service = new MemoryService({ dataDir: box.dataDir, workspace: resolveExistingWorkspace(box.workspace) });
    try {
      expect(fs.existsSync(killed)).toBe(false);
    } finally {
      await service.close();
    }
  });

  it('are kept while their owner process is alive (a running import is using them)', async () => {
    const running = leftover(`.staging-20260101-000000-p${process.ppid}-abcdef`);
    await importHermes();
    expect(fs.readdirSync(running)).toHaveLength(3);
  });

  it('without an owner (named by older versions) are removed once an hour old, kept while fresh', async () => {
    const old = leftover('.staging-20260101-000000-0a1b2c');
    const fresh = leftover('.staging-20260101-000001-3d4e5f');
    const hoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    fs.utimesSync(old, hoursAgo, hoursAgo);
    await importHermes();
    expect(fs.existsSync(old)).toBe(false);
    expect(fs.existsSync(fresh)).toBe(true);
  });
});
