import fs from 'node:fs';
import path from 'node:path';
import { ReverieError, errnoCode } from '../platform/errors.js';
import { sha256Hex } from '../platform/hash.js';
import { CURATED_FILES, MEMORY_DIR, ROOT_FILES, isIgnoredDirName, isMarkdownName, toPosix } from './layout.js';
import { workspaceLockFile } from './workspaceLocks.js';
import { replaceFileChecked } from '../platform/checkedReplace.js';
import { keptPreImage } from './curatedFiles.js';
import { type PreImageStore } from './preImages.js';

export interface FileSnapshot {
  path: string;
  text: string;
  sha256: string;
  mtimeMs: number;
  size: number;
}

/**
 * Reading and saving the person's Markdown. Paths are checked (no `..`, no symlinks, only
 * memory files); saves refuse to overwrite a file that changed since it was read, write
 * atomically, and keep a pre-image of MEMORY.md / USER.md.
 */
export class WorkspaceFiles {
  constructor(
    readonly root: string,
    private readonly extraRoots: () => readonly string[],
    private readonly preImages: PreImageStore,
  ) {}

  read(displayPath: string): FileSnapshot {
    const abs = this.resolve(displayPath);
    let bytes: Buffer;
    let stat: fs.Stats;
    try {
      bytes = fs.readFileSync(abs);
      stat = fs.statSync(abs);
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') throw new ReverieError('not-found', `${displayPath} does not exist (it may have been moved or deleted).`);
      throw new ReverieError('forbidden', `${displayPath} cannot be read (${errnoCode(error) ?? (error as Error).message}).`);
    }
    if (bytes.includes(0)) throw new ReverieError('invalid-input', `${displayPath} contains binary bytes; Reverie only opens text Markdown.`);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch (error) {
      throw new ReverieError('invalid-input', `${displayPath} is not UTF-8; re-save it as UTF-8 to open it here.`, { cause: error });
    }
    return { path: displayPath, text, sha256: sha256Hex(bytes), mtimeMs: stat.mtimeMs, size: bytes.length };
  }

  /**
   * Saves the person's edit if the file still holds what they opened, under the workspace's
   * Markdown write lock (agents' appends and sweeps take it too); lines another program appends
   * during the save are carried into the saved file.
   */
  write(displayPath: string, text: string, expectedSha256: string | null): Omit<FileSnapshot, 'text'> {
    const abs = this.resolve(displayPath);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    const name = path.basename(abs);
    const result = replaceFileChecked({
      file: abs,
      expectedSha256,
      next: Buffer.from(text, 'utf8'),
      lockFile: workspaceLockFile(this.root, 'markdown'),
      keepPreImage: CURATED_FILES.has(name) ? (current) => keptPreImage(this.preImages, name === 'USER.md' ? 'USER.md' : 'MEMORY.md', current, 'edited in Reverie', null) : undefined,
    });
    if (result.outcome === 'changed') throw new ReverieError('conflict', saveConflictMessage(displayPath, expectedSha256, fs.existsSync(abs)));
    const stat = fs.statSync(abs);
    return { path: displayPath, sha256: result.afterSha256, mtimeMs: stat.mtimeMs, size: stat.size };
  }

  /** Maps a display path to an absolute path, refusing anything that is not a memory file. */
  resolve(displayPath: string): string {
    if (!isMarkdownName(displayPath)) throw new ReverieError('forbidden', `${displayPath}: only .md files can be opened.`);
    const isAbsolute = displayPath.startsWith('/') || /^[A-Za-z]:[\\/]/.test(displayPath);
    const segments = displayPath.split(/[\\/]/).filter((s, i) => !(isAbsolute && i === 0 && s === ''));
    if (segments.some((s) => s === '..' || s === '.' || s === '')) {
      throw new ReverieError('forbidden', `${displayPath}: paths may not contain "..", "." or empty parts.`);
    }
    const abs = isAbsolute ? path.resolve(displayPath) : path.join(this.root, ...segments);
    const base = isAbsolute ? this.extraRootContaining(abs) : this.root;
    if (!base) throw new ReverieError('forbidden', `${displayPath} is outside the workspace and its configured extra paths.`);
    const rel = toPosix(path.relative(base, abs));
    const relSegments = rel.split('/');
    if (relSegments.slice(0, -1).some(isIgnoredDirName)) throw new ReverieError('forbidden', `${displayPath} is inside a hidden or ignored folder.`);
    if (!isAbsolute) {
      const isRootFile = relSegments.length === 1 && ROOT_FILES.some((f) => f.name === relSegments[0]);
      if (!isRootFile && relSegments[0] !== MEMORY_DIR) {
        throw new ReverieError('forbidden', `${displayPath}: only MEMORY.md, USER.md, DREAMS.md and files under memory/ are memory files.`);
      }
    }
    assertNoSymlinks(base, relSegments, displayPath);
    return abs;
  }

  private extraRootContaining(abs: string): string | null {
    for (const extra of this.extraRoots()) {
      const root = path.resolve(this.root, extra);
      if (abs === root && isMarkdownName(root)) return path.dirname(root);
      const rel = path.relative(root, abs);
      if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return root;
    }
    return null;
  }
}

function assertNoSymlinks(base: string, segments: string[], displayPath: string): void {
  let current = base;
  for (const segment of segments) {
    current = path.join(current, segment);
    try {
      if (fs.lstatSync(current).isSymbolicLink()) {
        throw new ReverieError('forbidden', `${displayPath} goes through a symlink (${segment}); symlinks are not followed.`);
      }
    } catch (error) {
      if (error instanceof ReverieError) throw error;
      return; // does not exist yet (a new file): nothing further to check
    }
  }
}

function saveConflictMessage(displayPath: string, expectedSha256: string | null, exists: boolean): string {
  if (expectedSha256 === null) return `${displayPath} already exists; open it and edit it instead of creating it.`;
  if (!exists) return `${displayPath} was deleted on disk after you opened it. Your text was not saved; copy it and save it as a new file.`;
  return `${displayPath} changed on disk after you opened it, so your edit was not saved over it. Reload the file to see the new version, then re-apply your change.`;
}
