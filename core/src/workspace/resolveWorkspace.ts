import fs from 'node:fs';
import path from 'node:path';
import { sha256Hex } from '../platform/hash.js';
import { errnoCode, ReverieError } from '../platform/errors.js';
import { defaultWorkspaceDir } from './dataDir.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('workspace');

export interface ResolvedWorkspace {
  root: string;
  /** Stable id from the real path: names the index file and the host lock. */
  id: string;
}

export function workspaceIdFor(root: string): string {
  return sha256Hex(root).slice(0, 16);
}

/** Checks that an explicitly chosen workspace exists; never creates a folder the person named by mistake. */
export function resolveExistingWorkspace(dir: string): ResolvedWorkspace {
  const abs = path.resolve(dir);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(abs);
  } catch (error) {
    throw new ReverieError(
      'workspace-missing',
      `Workspace folder ${abs} does not exist. Create it (mkdir -p "${abs}") or choose another with --workspace.`,
      { cause: error },
    );
  }
  if (!stat.isDirectory()) {
    throw new ReverieError('workspace-missing', `Workspace ${abs} is not a folder. Choose a folder with --workspace.`);
  }
  const root = fs.realpathSync.native(abs);
  return { root, id: workspaceIdFor(root) };
}

const STARTER_MEMORY = `# Memory

Long-term memory: durable facts, decisions and context worth keeping.
Reverie's dreaming promotes what keeps proving useful from your daily notes into this file.

- Reverie workspace created on ${'{DATE}'}.
`;

const STARTER_USER = `# User

Who you are and how you like to work. Agents read this first.

- Preferred name:
- Timezone:
`;

/** Creates the default workspace with a starter MEMORY.md and USER.md (never overwriting). */
export function createStarterWorkspace(dir = defaultWorkspaceDir()): ResolvedWorkspace {
  fs.mkdirSync(path.join(dir, 'memory'), { recursive: true });
  const today = new Date().toISOString().slice(0, 10);
  writeIfAbsent(path.join(dir, 'MEMORY.md'), STARTER_MEMORY.replace('{DATE}', today));
  writeIfAbsent(path.join(dir, 'USER.md'), STARTER_USER);
  return resolveExistingWorkspace(dir);
}

function writeIfAbsent(file: string, content: string): void {
  try {
    fs.writeFileSync(file, content, { flag: 'wx' });
  } catch (error) {
    // Exists: keep the person's file. Anything else is worth a warning (the starter stays incomplete).
    if (errnoCode(error) === 'EEXIST') log.debug('A starter file exists already; kept', { file });
    else log.warn('A starter file could not be written', { file, error });
  }
}
