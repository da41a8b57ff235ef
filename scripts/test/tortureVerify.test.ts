import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { collect } from '../torture/harness.js';
import { lostLines, missingPreImages, snapshotMarkdown, tornFiles, verdict } from '../torture/verify.js';

let dir: string | null = null;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = null;
});

function tempWorkspace(files: Record<string, string>): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-torture-test-'));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

describe('the torture verifier cannot pass vacuously', () => {
  it('calls a half-written file torn, and a complete append or an unchanged file whole', () => {
    const root = tempWorkspace({ 'MEMORY.md': '# Memory\n\n- one\n', 'USER.md': '# User\n' });
    const before = snapshotMarkdown(root);
    expect(tornFiles(before, snapshotMarkdown(root))).toEqual([]);
    fs.appendFileSync(path.join(root, 'MEMORY.md'), '- two\n');
    expect(tornFiles(before, snapshotMarkdown(root))).toEqual([]);
    fs.writeFileSync(path.join(root, 'MEMORY.md'), '# Memory\n\n- o'); // cut mid-line: neither before nor after
    expect(tornFiles(before, snapshotMarkdown(root))).toEqual([expect.stringMatching(/^MEMORY\.md/)]);
    fs.writeFileSync(path.join(root, 'MEMORY.md'), '# Memory\n\n- one\n- tw'); // an append cut mid-line
    expect(tornFiles(before, snapshotMarkdown(root))).toHaveLength(1);
    // A rewrite inside the file (a diary entry between markers) is whole only if a writer recorded exactly those bytes.
    const rewritten = '# Memory\n\n- inserted\n- one\n';
    fs.writeFileSync(path.join(root, 'MEMORY.md'), rewritten);
    expect(tornFiles(before, snapshotMarkdown(root))).toHaveLength(1);
    const planned = new Set([createHash('sha256').update(rewritten).digest('hex')]);
    expect(tornFiles(before, snapshotMarkdown(root), [], planned)).toEqual([]);
    fs.writeFileSync(path.join(root, 'MEMORY.md'), rewritten.slice(0, -3));
    expect(tornFiles(before, snapshotMarkdown(root), [], planned)).toHaveLength(1);
    fs.rmSync(path.join(root, 'USER.md'));
    expect(tornFiles(before, snapshotMarkdown(root))).toContain('USER.md (vanished)');
  });

  it('accepts a rewrite only when it is one of the known after images', () => {
    const root = tempWorkspace({ 'MEMORY.md': '# Memory\n- one\n' });
    const before = snapshotMarkdown(root);
    fs.writeFileSync(path.join(root, 'MEMORY.md'), '# Rewritten\n');
    const after = snapshotMarkdown(root);
    expect(tornFiles(before, after)).toHaveLength(1);
    expect(tornFiles(before, after, [after])).toEqual([]);
  });

  it('reports a changed MEMORY.md whose old bytes are in no pre-image, and not once they are', () => {
    const root = tempWorkspace({ 'MEMORY.md': '# Memory\n- one\n' });
    const dataDir = path.join(root, '..', `${path.basename(root)}-data`);
    const before = snapshotMarkdown(root);
    fs.writeFileSync(path.join(root, 'MEMORY.md'), '# Memory\n- one\n- promoted\n');
    const now = snapshotMarkdown(root);
    expect(missingPreImages(before, now, dataDir)).toEqual(['MEMORY.md']);
    const kept = path.join(dataDir, 'backups', 'pre-images', 'ws1');
    fs.mkdirSync(kept, { recursive: true });
    fs.writeFileSync(path.join(kept, 'MEMORY.md.1'), before.get('MEMORY.md')!);
    expect(missingPreImages(before, now, dataDir)).toEqual([]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('counts an appended line that a writer overwrote as lost', () => {
    const appended = ['- appended line 1 by the torture appender', '- appended line 2 by the torture appender'];
    expect(lostLines(appended, `# Memory\n${appended[0]}\n${appended[1]}\n`)).toEqual([]);
    expect(lostLines(appended, `# Memory\n${appended[1]}\n`)).toEqual([appended[0]]);
    expect(lostLines(appended, `# Memory\n${appended[0]}x\n`)).toHaveLength(2); // a line must be there whole
  });

  it('calls a process that outlives its budget a hang, exit 2 or a stack a crash', async () => {
    const sleeper = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const hung = await collect(sleeper, Date.now(), 300);
    expect(hung.timedOut).toBe(true);
    expect(verdict(hung)).toBe('hang');
    expect(verdict({ code: 2, stderr: '', timedOut: false })).toBe('crash');
    expect(verdict({ code: 1, stderr: 'SqliteError: malformed\n    at KeywordSearcher.rankedHits (/x/y.js:10:5)\n', timedOut: false })).toBe('crash');
    expect(verdict({ code: 1, stderr: 'reverie search: the query is empty.\n', timedOut: false })).toBe('ok');
  });
});
