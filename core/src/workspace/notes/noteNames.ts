import { ReverieError } from '../../platform/errors.js';
import { MEMORY_DIR } from '../layout.js';

/** Long enough for any title a person types; far below every file system's 255-byte name limit. */
export const MAX_NOTE_NAME_LENGTH = 120;

// Characters Windows, macOS or a sync service refuse in file names, plus the control range.
// eslint-disable-next-line no-control-regex
const RESERVED = /[<>:"|?*\\\u0000-\u001f]/;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i;

/**
 * Checks a note's name as a person typed it ("Tax module", "tax-module.md") and returns the
 * file name with `.md`. Refuses with a sentence saying why: no folders, no `..`, no reserved
 * characters, not too long.
 */
export function noteFileName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw new ReverieError('invalid-input', 'A note needs a name.');
  if (trimmed.includes('/')) throw new ReverieError('invalid-input', `"${shorten(trimmed)}" contains "/": a note's name cannot name a folder. Choose the folder separately.`);
  if (trimmed === '.' || trimmed === '..' || trimmed.startsWith('.')) {
    throw new ReverieError('invalid-input', `"${shorten(trimmed)}" starts with a dot: such files are hidden and never indexed. Choose a name that starts with a letter or digit.`);
  }
  const reserved = RESERVED.exec(trimmed);
  if (reserved) {
    const shown = reserved[0] < ' ' ? 'a control character' : `"${reserved[0]}"`;
    throw new ReverieError('invalid-input', `"${shorten(trimmed)}" contains ${shown}, which some systems do not allow in file names. Leave it out.`);
  }
  const base = trimmed.toLowerCase().endsWith('.md') ? trimmed.slice(0, -3).trimEnd() : trimmed;
  if (base === '') throw new ReverieError('invalid-input', 'A note needs a name before ".md".');
  if (WINDOWS_DEVICE.test(base)) throw new ReverieError('invalid-input', `"${base}" is a reserved device name on Windows. Choose another name.`);
  if (base.length > MAX_NOTE_NAME_LENGTH) {
    throw new ReverieError('invalid-input', `That name is ${base.length} characters long; a note's name may have at most ${MAX_NOTE_NAME_LENGTH}.`);
  }
  return `${base}.md`;
}

/**
 * Checks a folder under `memory/` given as `memory/projects` or `projects` (each part a valid
 * name) and returns it as `memory/…`.
 */
export function noteFolder(folder: string | undefined): string {
  const parts = (folder ?? '').split('/').filter((p) => p !== '');
  if (parts[0] === MEMORY_DIR) parts.shift();
  for (const part of parts) {
    try {
      noteFileName(part);
    } catch (error) {
      throw new ReverieError('invalid-input', `The folder "${shorten(folder ?? '')}" cannot be used: ${(error as Error).message}`);
    }
  }
  return [MEMORY_DIR, ...parts].join('/');
}

function shorten(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
