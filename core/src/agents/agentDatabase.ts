import path from 'node:path';
import { openSideDatabase, type SideDatabase } from '../platform/sideDatabase.js';
import { AGENT_MIGRATIONS } from './migrations/index.js';

/**
 * `<data-dir>/agents/<workspace id>.sqlite`: agents and their hashed tokens, the access log,
 * standing intents. Kept apart from the derived index: a rebuilt index must not revoke anyone.
 */
export function agentDatabasePath(dataDir: string, workspaceId: string): string {
  return path.join(dataDir, 'agents', `${workspaceId}.sqlite`);
}

export function openAgentDatabase(file: string): SideDatabase {
  return openSideDatabase(file, AGENT_MIGRATIONS, {
    lost: (f, movedTo, why) => `The agents store ${f} could not be read (${why}); it was moved to ${movedTo}. Agents need new tokens (\`reverie agents add\`).`,
    damaged: (f, copiedTo, why) =>
      `The agents store ${f} is damaged (${why}). It holds your agents' hashed tokens, their access log and standing intents, which cannot be rebuilt, so it was left in place; a copy is at ${copiedTo}. ` +
      `Restore ${f} from a backup, or move it aside to start a fresh one (every agent then needs a new token: \`reverie agents add\`).`,
  });
}
