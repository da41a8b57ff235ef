import path from 'node:path';
import type Database from 'better-sqlite3';
import { openSideDatabase } from '../platform/sideDatabase.js';
import { DREAM_MIGRATIONS } from './migrations/index.js';

/** `<data-dir>/dreaming/<workspace id>.sqlite`: dreaming's store, beside (not inside) the derived index. */
export function dreamDatabasePath(dataDir: string, workspaceId: string): string {
  return path.join(dataDir, 'dreaming', `${workspaceId}.sqlite`);
}

export function openDreamDatabase(file: string): { db: Database.Database; notice: string | null } {
  // Losing dream history is bad; refusing to start is worse. The damaged file is kept.
  return openSideDatabase(
    file,
    DREAM_MIGRATIONS,
    (f, movedTo, why) =>
      `The dreaming store ${f} could not be read (${why}); it was moved to ${movedTo} and a new one was started. Your Markdown, MEMORY.md pre-images and DREAMS.md are untouched.`,
  );
}
