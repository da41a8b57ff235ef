import fs from 'node:fs';
import path from 'node:path';
import { readToolToken } from '../../agents/connect/toolTokens.js';
import { resolveDataDir } from '../../workspace/dataDir.js';
import { processLogger } from '../../platform/log/processLog.js';

const log = processLogger('cli/fast');

/**
 * What `reverie hook` and `reverie mcp` need before deciding whether to load the engine at all:
 * the data folder, the workspace and the agent's token, read without the contract or SQLite
 * (a host answering on the socket makes both commands a few milliseconds of work).
 */
export interface FastContext {
  dataDir: string;
  /** The workspace's real path, or null when none is named or saved. */
  workspaceRoot: string | null;
  token: string | null;
  flags: Record<string, string | true>;
  positionals: string[];
}

export const AGENT_TOKEN_ENV = 'REVERIE_AGENT_TOKEN';

export function readFastContext(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): FastContext {
  const flags: Record<string, string | true> = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (!word.startsWith('--')) {
      positionals.push(word);
      continue;
    }
    const eq = word.indexOf('=');
    if (eq !== -1) flags[word.slice(2, eq)] = word.slice(eq + 1);
    else if (i + 1 < argv.length && !argv[i + 1]!.startsWith('--')) flags[word.slice(2)] = argv[++i]!;
    else flags[word.slice(2)] = true;
  }
  const { dataDir, workspaceRoot } = locateWorkspace(typeof flags['data-dir'] === 'string' ? flags['data-dir'] : undefined, typeof flags.workspace === 'string' ? flags.workspace : undefined, env);
  const tool = typeof flags.tool === 'string' ? flags.tool : null;
  const token = (typeof flags.token === 'string' ? flags.token : env[AGENT_TOKEN_ENV]?.trim()) || (tool ? readToolToken(dataDir, tool) : null);
  return { dataDir, workspaceRoot, token: token || null, flags, positionals };
}

/** The data folder and the workspace's real path (null when none is named or saved), as the full commands choose them. */
export function locateWorkspace(dataDirFlag: string | undefined, workspaceFlag: string | undefined, env: NodeJS.ProcessEnv = process.env): { dataDir: string; workspaceRoot: string | null } {
  const dataDir = resolveDataDir(dataDirFlag, env);
  const named = workspaceFlag ?? (env.REVERIE_WORKSPACE || savedWorkspace(dataDir));
  return { dataDir, workspaceRoot: named ? realWorkspace(named) : null };
}

/** The workspace chosen at first run (settings.json), read as plain JSON. */
function savedWorkspace(dataDir: string): string | null {
  try {
    const settings = JSON.parse(fs.readFileSync(path.join(dataDir, 'settings.json'), 'utf8')) as { workspace?: unknown };
    return typeof settings.workspace === 'string' && settings.workspace ? settings.workspace : null;
  } catch (error) {
    log.debug('no settings yet (or unreadable): the full command explains', { error });
    return null;
  }
}

function realWorkspace(dir: string): string | null {
  try {
    return fs.realpathSync.native(path.resolve(dir));
  } catch (error) {
    log.debug('missing: the full command explains', { error });
    return null;
  }
}
