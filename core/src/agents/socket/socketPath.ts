import path from 'node:path';
import { sha256Hex } from '../../platform/hash.js';

/** `<data-dir>/reverie.sock` (a Unix domain socket), or a named pipe on Windows. */
export function agentSocketPath(dataDir: string): string {
  if (process.platform === 'win32') return `\\\\.\\pipe\\reverie-${sha256Hex(path.resolve(dataDir)).slice(0, 16)}`;
  return path.join(dataDir, 'reverie.sock');
}
