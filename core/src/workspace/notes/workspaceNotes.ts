import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ReverieError, errnoCode } from '../../platform/errors.js';
import { sha256Hex } from '../../platform/hash.js';
import { localDay } from '../../platform/localDay.js';
import { withWriteLockSync } from '../../platform/writeLock.js';
import { MEMORY_DIR, ROOT_FILES } from '../layout.js';
import type { WorkspaceFiles } from '../workspaceFiles.js';
import { workspaceLockFile } from '../workspaceLocks.js';
import { noteFileName, noteFolder } from './noteNames.js';

export interface CreatedNote {
  path: string;
  sha256: string;
  /** False when the daily note already existed (it is opened, never overwritten). */
  created: boolean;
}

export interface TrashedNote {
  id: string;
  /** Where the note was, and where Restore puts it back. */
  path: string;
  trashedAt: string;
  size: number;
}

const TRASH_DIR = path.join('.reverie', 'trash');
const ENTRY_FILE = 'entry.json';
const NOTE_FILE = 'note.md';
const TRASH_ID = /^trash-[0-9]{8}T[0-9]{6}-[0-9a-f]{8}$/;

/**
 * Notes as a person handles them: new, daily, rename or move, delete to a trash inside the
 * workspace (`.reverie/trash/`, never indexed) and restore. Every change happens under the
 * workspace's Markdown lock and refuses to overwrite an existing note.
 */
export class WorkspaceNotes {
  constructor(
    private readonly files: WorkspaceFiles,
    private readonly now: () => number = Date.now,
  ) {}

  private get root(): string {
    return this.files.root;
  }

  create(input: { name: string; folder?: string; text?: string }): CreatedNote {
    const file = noteFileName(input.name);
    const notePath = `${noteFolder(input.folder)}/${file}`;
    const text = input.text ?? `# ${file.slice(0, -3)}\n\n`;
    const written = this.files.write(notePath, text, null);
    return { path: notePath, sha256: written.sha256, created: true };
  }

  /** Today's (or the given day's) `memory/YYYY-MM-DD.md`, created when missing. */
  daily(input: { date?: string }): CreatedNote {
    const day = input.date ?? localDay(this.now());
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) {
      throw new ReverieError('invalid-input', `"${day}" is not a date; give it as YYYY-MM-DD.`);
    }
    const notePath = `${MEMORY_DIR}/${day}.md`;
    const abs = this.files.resolve(notePath);
    if (fs.existsSync(abs)) return { path: notePath, sha256: sha256Hex(fs.readFileSync(abs)), created: false };
    const written = this.files.write(notePath, `# ${day}\n\n`, null);
    return { path: notePath, sha256: written.sha256, created: true };
  }

  /** Renames or moves a note to `to` (a path under memory/); refuses to replace another note. */
  rename(input: { path: string; to: string }): { path: string } {
    const from = this.ownNote(input.path);
    const slash = input.to.lastIndexOf('/');
    const target = `${noteFolder(slash < 0 ? undefined : input.to.slice(0, slash))}/${noteFileName(input.to.slice(slash + 1))}`;
    const toAbs = this.files.resolve(target);
    if (target === input.path) return { path: target };
    withWriteLockSync(workspaceLockFile(this.root, 'markdown'), () => {
      // A case-only rename on a case-insensitive disk finds "itself" here: allow that one.
      const isSameFile = fs.existsSync(toAbs) && fs.statSync(toAbs).ino === fs.statSync(from).ino;
      if (fs.existsSync(toAbs) && !isSameFile) {
        throw new ReverieError('conflict', `${target} already exists. Choose another name, or rename that note first.`);
      }
      fs.mkdirSync(path.dirname(toAbs), { recursive: true });
      fs.renameSync(from, toAbs);
    });
    return { path: target };
  }

  /**
   * Moves a note to the workspace trash. With `expectedSha256`, refuses when the note changed
   * since it was read (a deletion never drops text the person has not seen).
   */
  trash(input: { path: string; expectedSha256?: string | null }): TrashedNote {
    const abs = this.ownNote(input.path);
    const trashedAt = new Date(this.now());
    const id = `trash-${trashedAt.toISOString().replace(/[-:]/g, '').slice(0, 15)}-${crypto.randomBytes(4).toString('hex')}`;
    const dir = path.join(this.root, TRASH_DIR, id);
    let size = 0;
    withWriteLockSync(workspaceLockFile(this.root, 'markdown'), () => {
      const bytes = fs.readFileSync(abs);
      if (input.expectedSha256 && sha256Hex(bytes) !== input.expectedSha256) {
        throw new ReverieError('conflict', `${input.path} changed on disk after you opened it, so it was not deleted. Look at the new version first.`);
      }
      size = bytes.length;
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, ENTRY_FILE), JSON.stringify({ path: input.path, trashedAt: trashedAt.toISOString(), size }, null, 2));
      fs.renameSync(abs, path.join(dir, NOTE_FILE));
    });
    return { id, path: input.path, trashedAt: trashedAt.toISOString(), size };
  }

  /** Puts a trashed note back where it was; refuses when a note of that name exists again. */
  restore(input: { id: string }): { path: string } {
    const entry = this.readEntry(input.id);
    if (!entry) throw new ReverieError('not-found', 'That note is no longer in the trash (it was restored or emptied).');
    const toAbs = this.files.resolve(entry.path);
    const dir = path.join(this.root, TRASH_DIR, input.id);
    withWriteLockSync(workspaceLockFile(this.root, 'markdown'), () => {
      if (fs.existsSync(toAbs)) {
        throw new ReverieError('conflict', `${entry.path} exists again, so the trashed copy was not put over it. Rename that note first, then restore.`);
      }
      fs.mkdirSync(path.dirname(toAbs), { recursive: true });
      fs.renameSync(path.join(dir, NOTE_FILE), toAbs);
      fs.rmSync(dir, { recursive: true, force: true });
    });
    return { path: entry.path };
  }

  /** The trash, newest first. */
  listTrash(): TrashedNote[] {
    let ids: string[];
    try {
      ids = fs.readdirSync(path.join(this.root, TRASH_DIR));
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return [];
      throw error;
    }
    return ids
      .map((id) => this.readEntry(id))
      .filter((e): e is TrashedNote => e !== null)
      .sort((a, b) => b.trashedAt.localeCompare(a.trashedAt));
  }

  private readEntry(id: string): TrashedNote | null {
    if (!TRASH_ID.test(id)) return null;
    const dir = path.join(this.root, TRASH_DIR, id);
    try {
      const raw = JSON.parse(fs.readFileSync(path.join(dir, ENTRY_FILE), 'utf8')) as Partial<TrashedNote>;
      if (typeof raw.path !== 'string' || typeof raw.trashedAt !== 'string' || !fs.existsSync(path.join(dir, NOTE_FILE))) return null;
      return { id, path: raw.path, trashedAt: raw.trashedAt, size: typeof raw.size === 'number' ? raw.size : 0 };
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return null;
      throw new ReverieError('internal', `The trash entry ${id} cannot be read; its folder is ${dir}.`, { cause: error });
    }
  }

  /** A note under memory/ that exists: MEMORY.md, USER.md and DREAMS.md are not renamed or deleted. */
  private ownNote(notePath: string): string {
    if (ROOT_FILES.some((f) => f.name === notePath)) {
      throw new ReverieError('forbidden', `${notePath} is one of the workspace's own files; it cannot be renamed or deleted (edit it instead).`);
    }
    if (notePath.startsWith('/') || /^[A-Za-z]:[\\/]/.test(notePath)) {
      throw new ReverieError('forbidden', `${notePath} is outside the workspace; only notes under memory/ can be renamed or deleted here.`);
    }
    const abs = this.files.resolve(notePath);
    if (!fs.existsSync(abs)) throw new ReverieError('not-found', `${notePath} does not exist (it may have been moved or deleted).`);
    return abs;
  }
}
