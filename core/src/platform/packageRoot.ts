import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { processLogger } from './log/processLog.js';

const log = processLogger('platform');

/** The repository / app folder (holding package.json), found from this module's location. */
export function findPackageRoot(fromUrl: string = import.meta.url): string {
  let dir = path.dirname(fileURLToPath(fromUrl));
  for (;;) {
    const candidate = path.join(dir, 'package.json');
    if (fs.existsSync(candidate)) {
      try {
        if ((JSON.parse(fs.readFileSync(candidate, 'utf8')) as { name?: string }).name === 'reverie') return dir;
      } catch (error) {
        // Another package's unreadable package.json on the way up: keep looking.
        log.debug('A package.json on the way to the package root could not be read', { file: candidate, error });
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Cannot find the Reverie package root (package.json named "reverie").');
    dir = parent;
  }
}

/** Reverie's version (package.json), or 0.0.0 when it cannot be read (said in the log). */
export function packageVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(findPackageRoot(), 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch (error) {
    log.warn('The package version could not be read', { error });
    return '0.0.0';
  }
}
