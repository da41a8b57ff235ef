import fs from 'node:fs';
import path from 'node:path';
import { sha256Hex } from '../platform/hash.js';
import { IMPORTS_DIR } from '../workspace/layout.js';
import type { ImportTool } from './types.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('importers');

/** Longest folder or file name we create; well under the 255-byte limit of common file systems. */
export const MAX_NAME_BYTES = 200;

// Characters Windows forbids in names, plus control characters.
// eslint-disable-next-line no-control-regex
const FORBIDDEN_NAME_CHARS = /[<>:"/\\|?*\u0000-\u001f]/g;

/**
 * Turns any folder or file name into one safe to create on every platform: forbidden characters
 * become `-`, and a name longer than MAX_NAME_BYTES is cut and given a hash of the full name, so
 * two long names sharing a prefix stay distinct and the result is stable across runs.
 */
export function safeNameSegment(name: string): string {
  let safe = name.replace(FORBIDDEN_NAME_CHARS, '-').replace(/[. ]+$/, '');
  if (safe === '' || safe === '.' || safe === '..') safe = `_${safe.replace(/\./g, '_')}`;
  if (Buffer.byteLength(safe) <= MAX_NAME_BYTES) return safe;
  const ext = path.extname(safe).length <= 10 ? path.extname(safe) : '';
  const suffix = `-${sha256Hex(name).slice(0, 12)}${ext}`;
  let head = '';
  for (const ch of safe.slice(0, safe.length - ext.length)) {
    if (Buffer.byteLength(head + ch) + suffix.length > MAX_NAME_BYTES) break;
    head += ch;
  }
  return head + suffix;
}

/** The workspace-relative destination of an imported file. */
export function importDestination(tool: ImportTool, collection: string, relPath: string): string {
  const segments = relPath.split('/').filter((s) => s !== '');
  return [IMPORTS_DIR, tool, safeNameSegment(collection), ...segments.map(safeNameSegment)].join('/');
}

/**
 * Why a destination may not be written, or null when it is safe: it must be a relative,
 * `/`-separated path under `memory/imports/`, with no `..`, no drive letter, no absolute form.
 */
export function destinationProblem(destination: string): string | null {
  if (destination === '') return 'empty destination';
  if (destination.includes('\\')) return `destination ${destination} contains a backslash`;
  if (/^[A-Za-z]:/.test(destination)) return `destination ${destination} names a Windows drive`;
  if (destination.startsWith('/') || path.isAbsolute(destination) || path.win32.isAbsolute(destination))
    return `destination ${destination} is absolute`;
  const segments = destination.split('/');
  if (segments.some((s) => s === '..' || s === '.' || s === '')) return `destination ${destination} would escape the workspace`;
  if (!destination.startsWith(`${IMPORTS_DIR}/`)) return `destination ${destination} is outside ${IMPORTS_DIR}/`;
  return null;
}

/**
 * Why writing to a destination could land outside the workspace through a symlinked folder
 * (say `memory/imports` linked elsewhere), or null. Only existing folders are checked.
 */
export function symlinkedFolderOnPath(workspaceRoot: string, destination: string): string | null {
  const segments = destination.split('/');
  let current = workspaceRoot;
  for (const segment of segments.slice(0, -1)) {
    current = path.join(current, segment);
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(current);
    } catch (error) {
      // Does not exist yet: the import creates it.
      log.debug('An import folder does not exist yet', { folder: current, error });
      return null;
    }
    if (stat.isSymbolicLink()) return `folder ${path.relative(workspaceRoot, current)} is a symlink; imports never write through symlinks`;
    if (!stat.isDirectory()) return `${path.relative(workspaceRoot, current)} is a file, not a folder`;
  }
  return null;
}
