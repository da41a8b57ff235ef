import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository / app folder (holding package.json), found from this module's location. */
export function findPackageRoot(fromUrl: string = import.meta.url): string {
  let dir = path.dirname(fileURLToPath(fromUrl));
  for (;;) {
    const candidate = path.join(dir, 'package.json');
    if (fs.existsSync(candidate)) {
      try {
        if ((JSON.parse(fs.readFileSync(candidate, 'utf8')) as { name?: string }).name === 'reverie') return dir;
      } catch {
        /* keep looking */
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Cannot find the Reverie package root (package.json named "reverie").');
    dir = parent;
  }
}
