import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const ARTIFACTS_DIR = path.join(REPO_ROOT, 'e2e', 'artifacts');
export const RENDERER_INDEX = path.join(REPO_ROOT, 'out', 'renderer', 'index.html');
