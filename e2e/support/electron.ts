import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT as ROOT } from './paths.js';

/** The Electron binary: ELECTRON_OVERRIDE_DIST_PATH, else a normal install of the electron package, else null. */
export function findElectronBinary(env: NodeJS.ProcessEnv = process.env): string | null {
  const executable = process.platform === 'win32' ? 'electron.exe' : process.platform === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : 'electron';
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const candidate = path.join(env.ELECTRON_OVERRIDE_DIST_PATH, executable);
    return fs.existsSync(candidate) ? candidate : null;
  }
  try {
    const pkg = path.join(ROOT, 'node_modules', 'electron');
    const binary = path.join(pkg, 'dist', fs.readFileSync(path.join(pkg, 'path.txt'), 'utf8').trim());
    return fs.existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

export function electronVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string }).version;
}
