import path from 'node:path';
import { findPackageRoot } from '../../platform/packageRoot.js';

/**
 * The exact command that starts `reverie mcp` for this workspace from anywhere: this Node and
 * this installation's CLI by absolute path (`npx reverie` only resolves inside the repository).
 */
export function mcpLaunchCommand(workspaceRoot: string, dataDir: string): { command: string; args: string[] } {
  return {
    command: process.execPath,
    args: [path.join(findPackageRoot(), 'bin', 'reverie.js'), 'mcp', '--workspace', workspaceRoot, '--data-dir', path.resolve(dataDir)],
  };
}
