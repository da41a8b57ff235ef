import fs from 'node:fs';
import path from 'node:path';
import { errnoCode } from '../platform/errors.js';
import type { DetectedFile, DetectedSource } from './types.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('importers');

export const SYMLINK_REASON = 'symlink (not followed)';

/** The collection that lists source items whose names cannot be imported (they are skipped with the reason). */
export const UNREADABLE_NAMES_COLLECTION = 'names-not-utf8';

/**
 * Lists a folder without following anything. A missing folder is silent; an unreadable one
 * adds a note and yields nothing, so one locked folder never stops detection. An entry whose
 * name is not valid UTF-8 cannot be named in a plan, a destination or the index: it is left out
 * of the listing and accounted for in `skipped` (or, without it, in a note), with the reason.
 */
export function listFolder(dir: string, notes: string[], skipped?: DetectedFile[]): fs.Dirent[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    const why = code === 'EACCES' || code === 'EPERM' ? `permission denied, ${code}` : (code ?? 'error');
    notes.push(`Cannot read folder ${dir} (${why}); its files are not imported.`);
    return [];
  }
  // Names decode with U+FFFD in place of bad bytes: only those need the raw bytes.
  if (entries.some((e) => e.name.includes('\uFFFD'))) entries = withoutUndecodable(dir, entries, notes, skipped);
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function withoutUndecodable(dir: string, entries: fs.Dirent[], notes: string[], skipped: DetectedFile[] | undefined): fs.Dirent[] {
  let raw: fs.Dirent<Buffer>[];
  try {
    raw = fs.readdirSync(dir, { withFileTypes: true, encoding: 'buffer' });
  } catch (error) {
    log.debug('A folder could not be listed a second time', { dir, error });
    return entries;
  }
  const lossy = new Map<string, number>();
  for (const entry of raw) {
    if (Buffer.from(entry.name.toString('utf8'), 'utf8').equals(entry.name)) continue;
    const shown = escapedName(entry.name);
    const reason = `${entry.isDirectory() ? 'folder' : 'file'} name is not valid UTF-8: ${shown}`;
    const absPath = path.join(dir, shown);
    if (skipped) skipped.push({ absPath, relPath: shown, skipReason: reason });
    else notes.push(`Not imported: ${absPath} (${reason}).`);
    const decoded = entry.name.toString('utf8');
    lossy.set(decoded, (lossy.get(decoded) ?? 0) + 1);
  }
  // Drop the lossy spellings of those names (each once: a real name may hold U+FFFD too).
  return entries.filter((e) => {
    const left = lossy.get(e.name) ?? 0;
    if (left === 0) return true;
    lossy.set(e.name, left - 1);
    return false;
  });
}

/** Adds the items `listFolder` skipped for their names to the source, so the plan lists each with its reason. */
export function addSkippedNames(source: DetectedSource, skipped: readonly DetectedFile[]): void {
  if (skipped.length > 0) source.collections.push({ name: UNREADABLE_NAMES_COLLECTION, projectPath: null, origin: source.home, files: [...skipped] });
}

/** A name's valid UTF-8 as text and every other byte as `\xNN`, so the person can find it. */
export function escapedName(name: Buffer): string {
  let out = '';
  let i = 0;
  while (i < name.length) {
    const lead = name[i]!;
    const size = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    const piece = size > 0 ? name.subarray(i, i + size) : null;
    if (piece && piece.length === size && Buffer.from(piece.toString('utf8'), 'utf8').equals(piece)) {
      out += piece.toString('utf8');
      i += size;
    } else {
      out += `\\x${lead.toString(16).padStart(2, '0')}`;
      i++;
    }
  }
  return out;
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
