import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { processLogger } from '../../platform/log/processLog.js';

const log = processLogger('agents/project');

/**
 * The project key of a folder, without anyone typing one: the repository's `origin` remote,
 * normalised (`git@github.com:Org/App.git` and `https://github.com/org/app` are both
 * `github.com/org/app`), so clones and linked worktrees of one repository share it; a repository
 * without a remote is keyed by its main working folder; a folder outside any repository has
 * none. Read from `.git` directly (no `git` process), cached per folder for this process.
 */
const cache = new Map<string, string | null>();

export function projectKeyOf(dir: string): string | null {
  const start = path.resolve(dir);
  if (cache.has(start)) return cache.get(start)!;
  const key = computeKey(start);
  cache.set(start, key);
  return key;
}

/** The first `file://` root of an MCP client that lies in a repository. */
export async function projectKeyOfRoots(uris: readonly string[]): Promise<string | null> {
  for (const uri of uris) {
    if (!uri.startsWith('file:')) continue;
    let dir: string;
    try {
      dir = fileURLToPath(uri);
    } catch (error) {
      log.debug('not a local path this system can read', { error });
      continue;
    }
    const key = projectKeyOf(dir);
    if (key) return key;
  }
  return null;
}

function computeKey(start: string): string | null {
  const repo = findRepository(start);
  if (!repo) return null;
  const url = originUrl(path.join(repo.commonDir, 'config'));
  return url ? normaliseRemote(url) : repo.mainRoot;
}

interface Repository {
  /** The shared `.git` folder (a linked worktree's `commondir`). */
  commonDir: string;
  /** The main working folder: every worktree of the repository gives the same one. */
  mainRoot: string;
}

function findRepository(start: string): Repository | null {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, '.git');
    let stat: fs.Stats | null = null;
    try {
      stat = fs.statSync(dotGit);
    } catch (error) {
      log.debug('not here: look one folder up', { error });
      stat = null;
    }
    if (stat?.isDirectory()) return { commonDir: dotGit, mainRoot: dir };
    if (stat?.isFile()) {
      // A linked worktree or submodule: `gitdir: <path>`, whose `commondir` names the shared folder.
      const gitDir = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit) ?? '')?.[1];
      if (!gitDir) return null;
      const absGitDir = path.resolve(dir, gitDir);
      const common = readText(path.join(absGitDir, 'commondir'))?.trim();
      const commonDir = common ? path.resolve(absGitDir, common) : absGitDir;
      return { commonDir, mainRoot: path.basename(commonDir) === '.git' ? path.dirname(commonDir) : dir };
    }
    if (path.dirname(dir) === dir) return null;
  }
}

/** `url` of `[remote "origin"]` in a git config file. */
function originUrl(configFile: string): string | null {
  const text = readText(configFile);
  if (!text) return null;
  let inOrigin = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      inOrigin = /^\[\s*remote\s+"origin"\s*\]$/.test(line);
      continue;
    }
    const m = inOrigin ? /^url\s*=\s*(.+)$/.exec(line) : null;
    if (m) return m[1]!.replace(/^"(.*)"$/, '$1').trim();
  }
  return null;
}

/** `host/owner/repo`, lower-case, without scheme, user, port or `.git`; a local remote stays a path. */
export function normaliseRemote(url: string): string {
  let rest = url.trim();
  const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/)(.+)$/.exec(rest);
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(rest)) rest = `${scp[1]}/${scp[2]}`;
  else {
    const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]+@)?([^/:]+)(?::\d+)?(\/.*)?$/i.exec(rest);
    if (m) rest = `${m[1]}${m[2] ?? ''}`;
    else if (rest.startsWith('file://')) rest = rest.slice('file://'.length);
  }
  return rest.replace(/\/+$/, '').replace(/\.git$/i, '').replace(/\/+$/, '').toLowerCase();
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    log.debug('missing or unreadable: treated as absent', { error });
    return null;
  }
}
