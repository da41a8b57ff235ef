import os from 'node:os';
import path from 'node:path';
import type { AgentToolSpec } from '../contract/index.js';

export interface ToolHomeOptions {
  env?: NodeJS.ProcessEnv;
  userHome?: string;
  platform?: NodeJS.Platform;
}

/** Where a tool keeps its files when no home is given: its environment variable, else its default folder. */
export function defaultToolHome(tool: AgentToolSpec, { env = process.env, userHome = os.homedir(), platform = process.platform }: ToolHomeOptions = {}): string {
  const named = tool.home.env ? env[tool.home.env] : undefined;
  if (named) return named;
  if (platform === 'win32' && tool.home.windowsLocalAppData && env.LOCALAPPDATA) return path.join(env.LOCALAPPDATA, tool.home.windowsLocalAppData);
  return path.join(userHome, ...tool.home.default.split('/'));
}
