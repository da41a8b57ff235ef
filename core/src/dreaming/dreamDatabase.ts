import path from 'node:path';
import { openSideDatabase, type SideDatabase } from '../platform/sideDatabase.js';
import { DREAM_MIGRATIONS } from './migrations/index.js';

/** `<data-dir>/dreaming/<workspace id>.sqlite`: dreaming's store, beside (not inside) the derived index. */
export function dreamDatabasePath(dataDir: string, workspaceId: string): string {
  return path.join(dataDir, 'dreaming', `${workspaceId}.sqlite`);
}

export function openDreamDatabase(file: string): SideDatabase {
  // Losing dream history is bad; refusing to start is worse. The damaged file is kept.
  return openSideDatabase(file, DREAM_MIGRATIONS, {
    lost: (f, movedTo, why) =>
      `The dreaming store ${f} could not be read (${why}); it was moved to ${movedTo} and a new one was started. Your Markdown, MEMORY.md pre-images and DREAMS.md are untouched.`,
    damaged: (f, copiedTo, why) =>
      `The dreaming store ${f} is damaged (${why}). It holds your dream runs (what --rollback undoes) and recall history, which cannot be rebuilt from your Markdown, so it was left in place; a copy is at ${copiedTo}. ` +
      `Restore ${f} from a backup, or move it aside to start a fresh one. Your Markdown, MEMORY.md pre-images and DREAMS.md are untouched.`,
  });
}
