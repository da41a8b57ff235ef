import fs from 'node:fs';
import path from 'node:path';
import { processLogger } from '../../platform/log/processLog.js';

const log = processLogger('agents/connect');

/**
 * The token `reverie agents connect` made for a tool, kept (0600, in a 0700 folder of the data
 * folder) so its hooks can authenticate without a token on their command line, and so a second
 * connect (another scope) reuses it. The engine still stores only its hash.
 */
export function toolTokenFile(dataDir: string, tool: string): string {
  return path.join(dataDir, 'agents', 'tokens', `${tool}.token`);
}

export function readToolToken(dataDir: string, tool: string): string | null {
  try {
    const token = fs.readFileSync(toolTokenFile(dataDir, tool), 'utf8').trim();
    return token === '' ? null : token;
  } catch (error) {
    log.debug('never connected (or disconnected): no token', { error });
    return null;
  }
}
