import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replaceFileChecked, type KeptPreImage } from '../src/platform/checkedReplace.js';
import { readCuratedFile, writeCuratedFile } from '../src/workspace/curatedFiles.js';
import { PreImageStore } from '../src/workspace/preImages.js';
import { workspaceLockFile } from '../src/workspace/workspaceLocks.js';

const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

let dir: string;
let file: string;
let lockFile: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-replace-'));
  file = path.join(dir, 'MEMORY.md');
  lockFile = workspaceLockFile(dir, 'markdown');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A pre-image kept in memory: what the replace asked to keep, and every amendment. */
function memoryPreImage(): { kept: Buffer[]; keep: (current: Buffer) => KeptPreImage } {
  const kept: Buffer[] = [];
  return { kept, keep: (current) => (kept.push(Buffer.from(current)), { id: 'preimage:test', amend: (bytes) => void kept.push(Buffer.from(bytes)) }) };
}

describe('replaceFileChecked', () => {
  it('carries a line appended between the check and the rename into the new file and into the pre-image', () => {
    fs.writeFileSync(file, '# Memory\n\n- old line\n');
    const before = fs.readFileSync(file);
    const preImage = memoryPreImage();
    const next = Buffer.from('# Memory\n\n- old line\n- promoted line\n');
    const result = replaceFileChecked({
      file,
      expectedSha256: sha(before),
      next,
      lockFile,
      keepPreImage: preImage.keep,
      // An editor or `>>` appends while the temp file waits for its rename.
      beforeRename: () => fs.appendFileSync(file, '- typed during the write\n'),
    });
    expect(result).toMatchObject({ outcome: 'written', carriedOver: '- typed during the write\n'.length });
    const onDisk = fs.readFileSync(file, 'utf8');
    expect(onDisk).toBe('# Memory\n\n- old line\n- promoted line\n- typed during the write\n');
    expect(result.outcome === 'written' && result.afterSha256).toBe(sha(onDisk));
    // The pre-image holds every byte the old file ever had, including the late line.
    expect(preImage.kept.at(-1)!.toString()).toBe('# Memory\n\n- old line\n- typed during the write\n');
    expect(fs.existsSync(lockFile)).toBe(false);
    expect(fs.readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('gives way to an in-place rewrite made during the write: that version stays and is in the pre-image', () => {
    fs.writeFileSync(file, '- a\n- b\n');
    const preImage = memoryPreImage();
    const result = replaceFileChecked({
      file,
      expectedSha256: sha('- a\n- b\n'),
      next: Buffer.from('- a\n- b\n- promoted\n'),
      lockFile,
      keepPreImage: preImage.keep,
      beforeRename: () => fs.writeFileSync(file, '- a\n- B rewritten by the person\n'), // same inode, truncated and rewritten
    });
    expect(result.outcome).toBe('changed');
    expect(fs.readFileSync(file, 'utf8')).toBe('- a\n- B rewritten by the person\n');
    expect(preImage.kept.at(-1)!.toString()).toBe('- a\n- B rewritten by the person\n');
  });

  it('does not rename over a file an editor replaced (saved through its own rename) during the write', () => {
    fs.writeFileSync(file, 'v1\n');
    const result = replaceFileChecked({
      file,
      expectedSha256: sha('v1\n'),
      next: Buffer.from('v1\nsweep\n'),
      lockFile,
      beforeRename: () => {
        fs.writeFileSync(path.join(dir, 'editor.tmp'), 'v2 from the editor\n');
        fs.renameSync(path.join(dir, 'editor.tmp'), file);
      },
    });
    expect(result.outcome).toBe('changed');
    expect(fs.readFileSync(file, 'utf8')).toBe('v2 from the editor\n');
  });

  it('refuses when the file no longer holds the expected bytes, and when a new file appeared meanwhile', () => {
    fs.writeFileSync(file, 'edited\n');
    expect(replaceFileChecked({ file, expectedSha256: sha('original\n'), next: Buffer.from('x'), lockFile }).outcome).toBe('changed');
    expect(fs.readFileSync(file, 'utf8')).toBe('edited\n');
    const fresh = path.join(dir, 'new.md');
    const created = replaceFileChecked({ file: fresh, expectedSha256: null, next: Buffer.from('mine\n'), lockFile, beforeRename: () => fs.writeFileSync(fresh, 'theirs\n') });
    expect(created.outcome).toBe('changed');
    expect(fs.readFileSync(fresh, 'utf8')).toBe('theirs\n');
  });

  it('takes over a lock left by a dead process, and waits for none', () => {
    fs.mkdirSync(path.dirname(lockFile), { recursive: true });
    fs.writeFileSync(lockFile, '999999999');
    fs.writeFileSync(file, 'a\n');
    expect(replaceFileChecked({ file, expectedSha256: sha('a\n'), next: Buffer.from('b\n'), lockFile }).outcome).toBe('written');
    expect(fs.readFileSync(file, 'utf8')).toBe('b\n');
    expect(fs.existsSync(lockFile)).toBe(false);
  });
});

describe('writeCuratedFile', () => {
  it('amends the kept pre-image on disk so restoring it gives back the late line too', () => {
    fs.writeFileSync(file, '# Memory\n');
    const store = new PreImageStore(path.join(dir, 'preimages'));
    const snapshot = readCuratedFile(dir, 'MEMORY.md');
    const result = writeCuratedFile(snapshot, '# Memory\n- promoted\n', store, 'dream run dream:x', 'dream:x', () => fs.appendFileSync(file, '- late\n'));
    expect(result.outcome).toBe('written');
    expect(fs.readFileSync(file, 'utf8')).toBe('# Memory\n- promoted\n- late\n');
    const [record] = store.list('MEMORY.md');
    const { bytes } = store.read(record!.id);
    expect(bytes.toString()).toBe('# Memory\n- late\n');
    expect(record!.reason).toMatch(/^dream run dream:x; with lines appended/);
  });
});
