import path from 'node:path';
import type Database from 'better-sqlite3';
import { openSideDatabase } from '../platform/sideDatabase.js';
import { AGENT_MIGRATIONS } from './migrations/index.js';

/**
 * `<data-dir>/agents/<workspace id>.sqlite`: agents and their hashed tokens, the access log,
 * standing intents. Kept apart from the derived index: a rebuilt index must not revoke anyone.
 */
export function agentDatabasePath(dataDir: string, workspaceId: string): string {
  return path.join(dataDir, 'agents', `${workspaceId}.sqlite`);
}

export function openAgentDatabase(file: string): { db: Database.Database; notice: string | null } {
  return openSideDatabase(
    file,
    AGENT_MIGRATIONS,
    (f, movedTo, why) => `The agents store ${f} could not be read (${why}); it was moved to ${movedTo}. Agents need new tokens (\`reverie agents add\`).`,
  );
}
