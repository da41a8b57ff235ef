import fs from 'node:fs';
import path from 'node:path';
import type { SourceKind } from '../contract/index.js';
import { errnoCode } from '../platform/errors.js';
import { MEMORY_DIR, ROOT_FILES, displayPath, isIgnoredDirName, isMarkdownName } from './layout.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('workspace/discovery');

export interface DiscoveredFile {
  /** Workspace-relative with `/` (absolute for extra paths outside the workspace). */
  path: string;
  absPath: string;
  source: SourceKind;
  size: number;
  mtimeMs: number;
  /** Set when the file is found but must not be indexed (symlink, shadowed, …). */
  skipReason: string | null;
}

export interface DiscoveryOptions {
  workspaceRoot: string;
  /** Absolute, or relative to the workspace. Folders are searched for `*.md`; files must be `.md`. */
  extraPaths: readonly string[];
}

export interface DiscoveryResult {
  files: DiscoveredFile[];
  /** Problems with configured paths (missing extra path, unreadable folder, …). */
  warnings: string[];
}

/**
 * Finds every Markdown file Reverie should know about. Symlinks are reported and never
 * followed (so loops cannot hang us); files reachable twice are listed once, by real path.
 */
export function discoverWorkspace({ workspaceRoot, extraPaths }: DiscoveryOptions): DiscoveryResult {
  const files: DiscoveredFile[] = [];
  const warnings: string[] = [];
  const seenRealPaths = new Set<string>();

  const add = (absPath: string, source: SourceKind, stat: fs.Stats, skipReason: string | null, knownRealPath?: string): void => {
    // A symlink is reported under its own name (it is never followed, so it is no duplicate).
    let real = knownRealPath ?? absPath;
    if (knownRealPath === undefined && !stat.isSymbolicLink()) {
      try {
        real = fs.realpathSync.native(absPath);
      } catch (error) {
        // Vanished since readdir: keep the listed path.
        log.debug('A file vanished during discovery', { path: absPath, error });
      }
    }
    if (seenRealPaths.has(real)) return;
    seenRealPaths.add(real);
    files.push({
      path: displayPath(workspaceRoot, absPath),
      absPath,
      source,
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      skipReason,
    });
  };

  let memoryFileSeen = false;
  for (const { name, source } of ROOT_FILES) {
    const absPath = path.join(workspaceRoot, name);
    const stat = lstatOrNull(absPath);
    if (!stat) continue;
    // On case-sensitive disks both MEMORY.md and memory.md can exist; MEMORY.md wins.
    const isMemoryFile = name.toLowerCase() === 'memory.md';
    if (stat.isSymbolicLink()) add(absPath, source, stat, 'symlink (not followed)');
    else if (!stat.isFile()) add(absPath, source, stat, notRegularReason(stat));
    else if (isMemoryFile && memoryFileSeen && !sameFile(absPath, path.join(workspaceRoot, 'MEMORY.md')))
      add(absPath, source, stat, 'shadowed by MEMORY.md');
    else add(absPath, source, stat, null);
    if (isMemoryFile) memoryFileSeen = true;
  }

  const memoryDir = path.join(workspaceRoot, MEMORY_DIR);
  const memoryStat = lstatOrNull(memoryDir);
  // A symlinked memory/ (say to /etc) is reported, never walked: we only index what lives here.
  if (memoryStat?.isSymbolicLink()) add(memoryDir, 'memory', memoryStat, 'symlinked folder (not followed)');
  else walk(memoryDir, 'memory', add, warnings, false);

  for (const extra of extraPaths) {
    const absExtra = path.resolve(workspaceRoot, extra);
    const stat = lstatOrNull(absExtra);
    if (!stat) {
      warnings.push(`Extra path ${absExtra} does not exist; remove it with \`reverie config set extraPaths\` or create it.`);
      continue;
    }
    if (stat.isSymbolicLink()) {
      warnings.push(`Extra path ${absExtra} is a symlink; symlinks are not followed. Configure its real path instead.`);
    } else if (stat.isDirectory()) {
      walk(absExtra, 'memory', add, warnings, true);
    } else if (stat.isFile() && isMarkdownName(absExtra)) {
      add(absExtra, 'memory', stat, null);
    } else {
      warnings.push(`Extra path ${absExtra} is not a folder or a .md file; it was ignored.`);
    }
  }

  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, warnings };
}

type AddFile = (absPath: string, source: SourceKind, stat: fs.Stats, skipReason: string | null, knownRealPath?: string) => void;

/**
 * Walks a folder without following links. The root's real path is resolved once: below it no
 * link is followed, so a file's real path is its folder's plus its name (a realpath call per
 * file cost 2.4 of 13 s of a no-op sync over 100,000 notes).
 */
function walk(root: string, source: SourceKind, add: AddFile, warnings: string[], warnIfMissing: boolean): void {
  const stack: Array<[dir: string, real: string | undefined]> = [[root, realPathOrUndefined(root)]];
  while (stack.length > 0) {
    const [dir, realDir] = stack.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT' && dir === root && !warnIfMissing) continue;
      if (code === 'ENOENT') continue;
      warnings.push(`Cannot read folder ${dir} (${code ?? 'error'}); its notes are not indexed.`);
      // Also a coverage entry, so status counts it instead of saying nothing was missed.
      const dirStat = lstatOrNull(dir);
      if (dirStat) add(dir, source, dirStat, `unreadable folder (${code ?? 'error'}); its notes are not indexed`);
      continue;
    }
    for (const entry of entries) {
      const absPath = path.join(dir, entry.name);
      const real = realDir === undefined ? undefined : path.join(realDir, entry.name);
      if (entry.isDirectory()) {
        if (!isIgnoredDirName(entry.name)) stack.push([absPath, real]);
      } else if (entry.isSymbolicLink() && !isMarkdownName(entry.name)) {
        // Possibly a folder link (`loop -> .`): reported, never followed, so loops cannot recurse.
        const stat = lstatOrNull(absPath);
        if (stat && isLinkToFolder(absPath)) add(absPath, source, stat, 'symlinked folder (not followed)');
      } else if (isMarkdownName(entry.name)) {
        const stat = lstatOrNull(absPath);
        if (!stat) continue; // deleted between readdir and lstat
        if (stat.isSymbolicLink()) add(absPath, source, stat, 'symlink (not followed)');
        else if (stat.isFile()) add(absPath, source, stat, null, real);
        else add(absPath, source, stat, notRegularReason(stat), real);
      }
    }
  }
}

function realPathOrUndefined(p: string): string | undefined {
  try {
    return fs.realpathSync.native(p);
  } catch (error) {
    log.debug('A folder could not be resolved during discovery', { path: p, error });
    return undefined;
  }
}

/** Why a non-regular `.md` path is skipped; it is never opened (a FIFO would block the read). */
function notRegularReason(stat: fs.Stats): string {
  if (stat.isDirectory()) return 'a folder, not a file';
  if (stat.isFIFO()) return 'not a regular file (named pipe); never opened';
  if (stat.isSocket()) return 'not a regular file (socket); never opened';
  return 'not a regular file (device or special file); never opened';
}

function isLinkToFolder(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch (error) {
    log.debug('A symlink target could not be read during discovery', { path: p, error });
    return false;
  }
}

function lstatOrNull(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch (error) {
    log.debug('A path could not be read during discovery', { path: p, error });
    return null;
  }
}

function sameFile(a: string, b: string): boolean {
  try {
    const sa = fs.statSync(a);
    const sb = fs.statSync(b);
    return sa.ino === sb.ino && sa.dev === sb.dev;
  } catch (error) {
    log.debug('Two paths could not be compared', { a, b, error });
    return false;
  }
}
