import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ReverieError } from '../platform/errors.js';
import { sha256Hex } from '../platform/hash.js';
import { writeFileAtomically } from '../platform/safeWrite.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('workspace/preImages');

export type PreImageFile = 'MEMORY.md' | 'USER.md' | 'DREAMS.md';

export interface PreImageRecord {
  id: string;
  file: PreImageFile;
  createdAt: string;
  sha256: string;
  size: number;
  reason: string;
  runId: string | null;
}

/** At least the last 20 are promised; a few more cost little. */
export const PRE_IMAGES_KEPT_PER_FILE = 30;
const ID_PREFIX = 'preimage:';

/**
 * Earlier versions of the curated files, saved before every rewrite: `<stamp>-<rand>-<NAME>`
 * with a `.json` sidecar saying why. The person can list and restore them.
 */
export class PreImageStore {
  constructor(readonly dir: string) {}

  keep(file: PreImageFile, bytes: Uint8Array, reason: string, runId: string | null = null): PreImageRecord {
    fs.mkdirSync(this.dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const name = `${stamp}-${randomBytes(3).toString('hex')}-${file}`;
    const record: PreImageRecord = { id: ID_PREFIX + name, file, createdAt: new Date().toISOString(), sha256: sha256Hex(bytes), size: bytes.length, reason, runId };
    writeFileAtomically(path.join(this.dir, name), bytes);
    writeFileAtomically(path.join(this.dir, `${name}.json`), JSON.stringify(record, null, 2) + '\n');
    this.prune(file);
    return record;
  }

  /**
   * Replaces a pre-image's bytes with the file's fuller earlier content (bytes another writer
   * appended before the rename that the pre-image was kept for): the pre-image holds every byte.
   * Bytes first, then the sidecar: a crash between them leaves a checksum mismatch, which
   * `read` refuses rather than restoring the wrong bytes.
   */
  amend(id: string, bytes: Uint8Array, why: string): PreImageRecord {
    const { record } = this.read(id);
    const name = record.id.slice(ID_PREFIX.length);
    const amended: PreImageRecord = { ...record, sha256: sha256Hex(bytes), size: bytes.length, reason: `${record.reason}; ${why}` };
    writeFileAtomically(path.join(this.dir, name), bytes);
    writeFileAtomically(path.join(this.dir, `${name}.json`), JSON.stringify(amended, null, 2) + '\n');
    return amended;
  }

  list(file?: PreImageFile): PreImageRecord[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch (error) {
      log.debug('No pre-image folder yet', { dir: this.dir, error });
      return [];
    }
    const records: PreImageRecord[] = [];
    for (const name of names) {
      if (!name.endsWith('.md')) continue;
      const record = this.readRecord(name);
      if (record && (!file || record.file === file)) records.push(record);
    }
    return records.sort((a, b) => b.id.localeCompare(a.id));
  }

  /** The saved bytes, verified against the recorded checksum. */
  read(id: string): { record: PreImageRecord; bytes: Buffer } {
    const name = id.startsWith(ID_PREFIX) ? id.slice(ID_PREFIX.length) : id;
    if (!/^[\w.-]+\.md$/.test(name)) throw new ReverieError('invalid-input', `"${id}" is not a pre-image id (they look like preimage:2026-…-MEMORY.md).`);
    const record = this.readRecord(name);
    if (!record) throw new ReverieError('not-found', `No pre-image ${id}; list them with dream.preimages.`);
    const bytes = fs.readFileSync(path.join(this.dir, name));
    if (sha256Hex(bytes) !== record.sha256) throw new ReverieError('conflict', `Pre-image ${id} does not match its checksum; it was not restored.`);
    return { record, bytes };
  }

  private readRecord(name: string): PreImageRecord | null {
    const legacy = /^(.*)-(MEMORY\.md|USER\.md|memory\.md)$/.exec(name);
    try {
      return JSON.parse(fs.readFileSync(path.join(this.dir, `${name}.json`), 'utf8')) as PreImageRecord;
    } catch (sidecarError) {
      // Pre-images saved by earlier versions have no sidecar: describe them from the file.
      if (!legacy) {
        log.debug('A pre-image has no readable description', { file: name, error: sidecarError });
        return null;
      }
      try {
        const bytes = fs.readFileSync(path.join(this.dir, name));
        const stat = fs.statSync(path.join(this.dir, name));
        const file = legacy[2] === 'USER.md' ? 'USER.md' : 'MEMORY.md';
        return { id: ID_PREFIX + name, file, createdAt: stat.mtime.toISOString(), sha256: sha256Hex(bytes), size: bytes.length, reason: 'edit', runId: null };
      } catch (error) {
        log.warn('An older pre-image could not be read; left out of the list', { file: name, error });
        return null;
      }
    }
  }

  private prune(file: PreImageFile): void {
    for (const old of this.list(file).slice(PRE_IMAGES_KEPT_PER_FILE)) {
      const name = old.id.slice(ID_PREFIX.length);
      fs.rmSync(path.join(this.dir, name), { force: true });
      fs.rmSync(path.join(this.dir, `${name}.json`), { force: true });
    }
  }
}
