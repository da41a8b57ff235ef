import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyImport } from '../src/importers/apply.js';
import { planImport } from '../src/importers/plan.js';
import { escapedName } from '../src/importers/sourceFolders.js';
import { makeImportSandbox, type ImportSandbox } from './fixtures/import-sources/sandbox.js';

let box: ImportSandbox;
beforeEach(() => {
  box = makeImportSandbox();
});
afterEach(() => box.cleanup());

/** A real folder whose name holds the byte 0xFF (never valid UTF-8), made through a Buffer path. */
function mkdirWithBadName(parent: string, before: string, after: string): Buffer {
  const name = Buffer.concat([Buffer.from(before), Buffer.from([0xff]), Buffer.from(after)]);
  fs.mkdirSync(Buffer.concat([Buffer.from(parent + path.sep), name]), { recursive: true });
  return name;
}

function writeInside(parent: string, name: Buffer, rel: string, text: string): void {
  const dir = Buffer.concat([Buffer.from(parent + path.sep), name, Buffer.from(path.sep + path.dirname(rel))]);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(Buffer.concat([dir, Buffer.from(path.sep + path.basename(rel))]), text);
}

describe('source folders whose names are not valid UTF-8', () => {
  it('escapes the bytes that are not UTF-8 and keeps the rest as text', () => {
    expect(escapedName(Buffer.from([0x61, 0xff, 0xc3, 0xa9, 0xe2, 0x82]))).toBe('a\\xffé\\xe2\\x82');
  });

  it('lists a Hermes profile and a Claude Code project folder as skipped items with the reason, and applies the rest', async () => {
    const profile = mkdirWithBadName(path.join(box.hermesHome, 'profiles'), 'caf', '');
    writeInside(path.join(box.hermesHome, 'profiles'), profile, 'memories/MEMORY.md', 'A memory in a badly named profile.\n');
    const project = mkdirWithBadName(path.join(box.claudeHome, 'projects'), '-Users-dana-', 'x');
    writeInside(path.join(box.claudeHome, 'projects'), project, 'memory/MEMORY.md', '- [Topic](topic.md) — hook\n');

    const plan = await planImport({ workspaceRoot: box.workspace, sources: [{ tool: 'hermes', home: box.hermesHome }, { tool: 'claude-code', home: box.claudeHome }], includeClaudeMd: false });
    const skipped = plan.items.filter((i) => i.reason?.includes('not valid UTF-8'));
    expect(skipped.map((i) => [i.tool, i.status, i.reason])).toEqual([
      ['hermes', 'skipped', 'folder name is not valid UTF-8: caf\\xff'],
      ['claude-code', 'skipped', 'folder name is not valid UTF-8: -Users-dana-\\xffx'],
    ]);
    expect(skipped[0]!.sourcePath).toBe(path.join(box.hermesHome, 'profiles', 'caf\\xff'));
    // The lossy spelling (U+FFFD) never reaches the plan as a file to read.
    expect(plan.items.some((i) => i.sourcePath.includes('\uFFFD'))).toBe(false);

    const report = await applyImport(plan, { workspaceRoot: box.workspace, dataDir: box.dataDir });
    expect(report.outcome).toBe('completed');
    const reported = report.items.filter((i) => i.reason?.includes('not valid UTF-8'));
    expect(reported.map((i) => i.action)).toEqual(['skipped', 'skipped']);
    expect(report.copied).toBeGreaterThan(0);
  });

  it('lists a badly named file inside a Hermes memories folder as skipped too', async () => {
    const memories = path.join(box.hermesHome, 'memories');
    fs.writeFileSync(Buffer.concat([Buffer.from(memories + path.sep), Buffer.from([0x4d, 0xfe]), Buffer.from('.md')]), 'x\n');
    const plan = await planImport({ workspaceRoot: box.workspace, sources: [{ tool: 'hermes', home: box.hermesHome }] });
    expect(plan.items.find((i) => i.reason?.includes('not valid UTF-8'))).toMatchObject({ status: 'skipped', reason: 'file name is not valid UTF-8: M\\xfe.md' });
  });
});
