import { ReverieError } from '../../platform/errors.js';
import { readCuratedFile } from '../../workspace/curatedFiles.js';

export type CuratedName = 'MEMORY.md' | 'USER.md';

export interface CuratedText {
  text: string;
  /** Why the file was left out (a symlink, not UTF-8, unreadable); null when read or absent. */
  skipped: string | null;
}

/** A curated file for an agent: absent reads as empty; one we must not read is left out with a reason, never thrown. */
export function readCuratedText(workspaceRoot: string, name: CuratedName): CuratedText {
  try {
    return { text: readCuratedFile(workspaceRoot, name).text, skipped: null };
  } catch (error) {
    if (error instanceof ReverieError) return { text: '', skipped: error.message };
    return { text: '', skipped: `${name} could not be read (${(error as Error).message}).` };
  }
}
