import fs from 'node:fs';
import path from 'node:path';
import type { SourceKind } from '../contract/index.js';
import { errnoCode } from '../platform/errors.js';
import { MEMORY_DIR, ROOT_FILES, displayPath, isIgnoredDirName, isMarkdownName, isWithinFolder } from './layout.js';
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
export function discoverWorkspace(options: DiscoveryOptions): DiscoveryResult {
  return discover(options, null);
}

export interface ChangedPathsDiscovery extends DiscoveryResult {
  /**
   * The index rows this discovery speaks for (display paths): a row in `paths`, in `folders` or
   * below one of `folders` that is not in `files` is gone from the disk. Each changed path is
   * named under every root that reaches it; `paths` also holds the root files, the extra paths
   * and the folders walked through (a folder's own row says it was unreadable).
   */
  covered: { paths: string[]; folders: string[] };
}

/**
 * What `discoverWorkspace` would list, restricted to the changed paths (files or folders,
 * absolute, as a watcher reports them) and the root files: the same rules, roots and
 * de-duplication, without listing a folder of 100,000 notes for one edit. A changed folder is
 * walked whole; a changed file is looked up by name.
 */
export function discoverChangedPaths(options: DiscoveryOptions, changedAbsPaths: readonly string[]): ChangedPathsDiscovery {
  const { workspaceRoot, extraPaths } = options;
  const changedReal = changedAbsPaths.map(realPathOfEntry);
  const paths = new Set<string>([...ROOT_FILES.map(({ name }) => name), ...extraPaths.map((extra) => displayPath(workspaceRoot, path.resolve(workspaceRoot, extra)))]);
  const folders = new Set<string>();
  const scopeOf = (root: string, realRoot: string | undefined): WalkScope => {
    const rels = new Set<string>();
    changedAbsPaths.forEach((changed, i) => {
      for (const [base, target] of [[root, changed], [realRoot, changedReal[i]!]] as const) {
        if (base === undefined) continue;
        // A changed folder that holds the root (a parent of an extra path, moved away): the whole root.
        const rel = isWithinFolder(base, target) ? path.relative(base, target) : isWithinFolder(target, base) ? '' : null;
        if (rel === null) continue;
        rels.add(rel);
        folders.add(displayPath(workspaceRoot, path.join(root, rel)));
        for (let up = rel; up !== '.' && up !== ''; up = path.dirname(up)) paths.add(displayPath(workspaceRoot, path.join(root, path.dirname(up))));
      }
    });
    return { rels: [...rels] };
  };
  const result = discover(options, scopeOf);
  return { ...result, covered: { paths: [...paths], folders: [...folders] } };
}

/** Below one root, the changed paths (relative to it; '' for the root itself) a walk is limited to. */
interface WalkScope {
  rels: string[];
}

/** A walk's scope for a root (its path and real path): null walks it whole. */
type ScopeOfRoot = (root: string, realRoot: string | undefined) => WalkScope | null;

function discover({ workspaceRoot, extraPaths }: DiscoveryOptions, scopeOf: ScopeOfRoot | null): DiscoveryResult {
  const files: DiscoveredFile[] = [];
  const warnings: string[] = [];
  const seenRealPaths = new Set<string>();

  // A folder's display path, worked out once per folder: `path.relative` per file was a third of
  // listing 20,000 notes. The root itself (extra path ".") keeps the general rule.
  const displayFolders = new Map<string, string>();
  const displayOf = (absPath: string): string => {
    const cut = absPath.lastIndexOf(path.sep);
    const folder = cut > 0 ? absPath.slice(0, cut) : '';
    if (folder === '' || folder === workspaceRoot || absPath.slice(cut + 1).startsWith('..')) return displayPath(workspaceRoot, absPath);
    let shown = displayFolders.get(folder);
    if (shown === undefined) displayFolders.set(folder, (shown = displayPath(workspaceRoot, folder)));
    return `${shown}/${absPath.slice(cut + 1)}`;
  };

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
      path: displayOf(absPath),
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
  else walk(memoryDir, 'memory', add, warnings, false, scopeOf);

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
      walk(absExtra, 'memory', add, warnings, true, scopeOf);
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
function walk(root: string, source: SourceKind, add: AddFile, warnings: string[], warnIfMissing: boolean, scopeOf: ScopeOfRoot | null): void {
  const realRoot = realPathOrUndefined(root);
  const scope = scopeOf?.(root, realRoot) ?? null;
  const stack: Array<[dir: string, real: string | undefined, rel: string]> = [[root, realRoot, '']];
  while (stack.length > 0) {
    const [dir, realDir, relDir] = stack.pop()!;
    let entries: Array<Pick<fs.Dirent, 'name' | 'isDirectory' | 'isSymbolicLink'>>;
    try {
      const names = scope ? namesToVisit(scope, relDir) : 'all';
      if (names === 'all') entries = fs.readdirSync(dir, { withFileTypes: true });
      else {
        // A folder the full walk could not list is reported the same way (its notes are not indexed).
        fs.accessSync(dir, fs.constants.R_OK | fs.constants.X_OK);
        entries = names.flatMap((name) => {
          const stat = lstatOrNull(path.join(dir, name));
          return stat ? [{ name, isDirectory: () => stat.isDirectory(), isSymbolicLink: () => stat.isSymbolicLink() }] : [];
        });
      }
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
      const absPath = childPath(dir, entry.name);
      const real = realDir === undefined ? undefined : childPath(realDir, entry.name);
      if (entry.isDirectory()) {
        if (!isIgnoredDirName(entry.name)) stack.push([absPath, real, path.join(relDir, entry.name)]);
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

/**
 * `path.join` for a name a folder listing returned (never a separator, `.` or `..`) under a path
 * that is already normal: a concatenation, not a normalisation per file.
 */
function childPath(folder: string, name: string): string {
  return folder.endsWith(path.sep) ? folder + name : folder + path.sep + name;
}

/**
 * Which entries of the folder `relDir` (relative to the root) a scoped walk visits: all of them
 * when the folder is a changed path or lies inside one, else the next step towards each changed
 * path below it (none when no changed path is below it).
 */
function namesToVisit(scope: WalkScope, relDir: string): string[] | 'all' {
  const names = new Set<string>();
  for (const rel of scope.rels) {
    if (rel === relDir || isInside(relDir, rel)) return 'all';
    if (relDir === '' || isInside(rel, relDir)) names.add(rel.slice(relDir === '' ? 0 : relDir.length + 1).split(path.sep)[0]!);
  }
  return [...names];
}

/** `inner` is strictly below `outer` (relative paths; '' is the root). */
function isInside(inner: string, outer: string): boolean {
  return outer === '' ? inner !== '' : inner.startsWith(outer + path.sep);
}

/**
 * A changed path as the walk names it: its folder's real path plus its own name (the entry itself,
 * a link perhaps, is not resolved: the walk never follows one). A vanished folder's nearest
 * existing ancestor is resolved instead.
 */
function realPathOfEntry(absPath: string): string {
  const parent = path.dirname(absPath);
  if (parent === absPath) return absPath;
  const realParent = realPathOrUndefined(parent) ?? realPathOfEntry(parent);
  return path.join(realParent, path.basename(absPath));
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
