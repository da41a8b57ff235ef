import fs from 'node:fs';
import path from 'node:path';
import { errnoCode } from '../platform/errors.js';
import type { DetectedFile } from './types.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('importers');

export const SYMLINK_REASON = 'symlink (not followed)';

/**
 * Lists a folder without following anything. A missing folder is silent; an unreadable one
 * adds a note and yields nothing, so one locked folder never stops detection.
 */
export function listFolder(dir: string, notes: string[]): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    const why = code === 'EACCES' || code === 'EPERM' ? `permission denied, ${code}` : (code ?? 'error');
    notes.push(`Cannot read folder ${dir} (${why}); its files are not imported.`);
    return [];
  }
}

export function lstatOrNull(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch (error) {
    log.debug('An import source path could not be read', { path: p, error });
    return null;
  }
}

/** A file entry for the plan; symlinks are listed so the report can say they were skipped. */
export function fileEntry(absPath: string, relPath: string, entry: fs.Dirent | fs.Stats): DetectedFile {
  return { absPath, relPath, skipReason: entry.isSymbolicLink() ? SYMLINK_REASON : null };
}

/** The home folder's state: a real folder, missing, or something we must not walk into. */
export function homeProblem(home: string): { exists: boolean; note: string | null } {
  const stat = lstatOrNull(home);
  if (!stat) return { exists: false, note: `No folder at ${home}; nothing to import from it.` };
  if (stat.isSymbolicLink()) {
    // A home given as a symlink (common with dotfile managers) is resolved once, explicitly.
    try {
      if (fs.statSync(home).isDirectory()) return { exists: true, note: null };
    } catch (error) {
      log.debug('An import source is a broken symlink', { home, error });
      return { exists: false, note: `${home} is a broken symlink; nothing to import from it.` };
    }
  }
  if (!fs.statSync(home).isDirectory()) return { exists: false, note: `${home} is not a folder; nothing to import from it.` };
  return { exists: true, note: null };
}

export function isMarkdownFileName(name: string): boolean {
  return name.toLowerCase().endsWith('.md');
}

export function joinRel(...parts: string[]): string {
  return parts.filter((p) => p !== '').join('/');
}

export function resolveHomePath(p: string, userHome: string): string {
  if (p === '~') return userHome;
  if (p.startsWith('~/') || p.startsWith('~\\')) return path.join(userHome, p.slice(2));
  return p;
}
