import os from 'node:os';
import path from 'node:path';

/**
 * The one application-data folder shared by the CLI and the desktop app, as Electron's
 * `app.getPath('userData')` would name it for an app called "Reverie".
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const home = os.homedir();
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Reverie');
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Reverie');
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'Reverie');
}

export function resolveDataDir(explicit: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = explicit ?? env.REVERIE_DATA_DIR;
  return path.resolve(chosen && chosen.length > 0 ? chosen : defaultDataDir(env));
}

export function defaultWorkspaceDir(): string {
  return path.join(os.homedir(), 'Reverie');
}

export function openClawWorkspaceDir(): string {
  return path.join(os.homedir(), '.openclaw', 'workspace');
}
