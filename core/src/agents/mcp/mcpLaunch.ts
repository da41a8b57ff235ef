import path from 'node:path';
import { findPackageRoot } from '../../platform/packageRoot.js';

/** How an agent tool starts Reverie's commands for one workspace: this Node and this installation's CLI by absolute path. */
export interface AgentLaunch {
  command: string;
  /** `reverie mcp …` */
  mcpArgs: string[];
  /** `reverie hook …`: the event goes after the first two words (`<bin> hook`). */
  hookArgs: string[];
  /** Inside the desktop app `command` is Electron's binary, which runs the CLI as plain Node only with ELECTRON_RUN_AS_NODE. */
  env: Record<string, string>;
}

/**
 * The exact command that starts `reverie mcp` for this workspace from anywhere: this Node and
 * this installation's CLI by absolute path (`npx reverie` only resolves inside the repository;
 * an installed package's own path is what the window's snippets and `agents connect` write).
 */
export function mcpLaunchCommand(workspaceRoot: string, dataDir: string): { command: string; args: string[] } {
  const launch = agentLaunch(workspaceRoot, dataDir);
  return { command: launch.command, args: launch.mcpArgs };
}

export function agentLaunch(workspaceRoot: string, dataDir: string): AgentLaunch {
  const bin = path.join(findPackageRoot(), 'bin', 'reverie.js');
  const where = ['--workspace', workspaceRoot, '--data-dir', path.resolve(dataDir)];
  const env: Record<string, string> = process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {};
  return { command: process.execPath, mcpArgs: [bin, 'mcp', ...where], hookArgs: [bin, 'hook', ...where], env };
}
