import { MemoryService } from '../engine/memoryService.js';
import { resolveDataDir } from '../workspace/dataDir.js';
import { SettingsStore } from '../workspace/settingsStore.js';
import { chooseWorkspace } from './workspaceChoice.js';

/** The flags every command accepts (declared in GLOBAL_FLAGS); a command's own flags come typed to its `run`. */
export interface GlobalFlags {
  workspace?: string;
  dataDir?: string;
  json: boolean;
}

export interface CliContext {
  /** --json: stdout carries exactly one JSON value. */
  json: boolean;
  /** --workspace, when given. */
  workspace?: string;
  positionals: string[];
  dataDir: string;
  settings: SettingsStore;
  canPrompt: boolean;
  /** The command's usage lines (from its table), for its own "say it this way" errors. */
  usage: string;
}

export function createContext(global: GlobalFlags, positionals: string[], usage: string): CliContext {
  const dataDir = resolveDataDir(global.dataDir);
  return {
    json: global.json,
    workspace: global.workspace,
    positionals,
    dataDir,
    settings: new SettingsStore(dataDir),
    canPrompt: Boolean(process.stdin.isTTY && process.stderr.isTTY) && !global.json,
    usage,
  };
}

export async function openService(ctx: CliContext, workspaceOverride?: string, options: { readOnlyIndex?: boolean } = {}): Promise<MemoryService> {
  const explicit = workspaceOverride ?? ctx.workspace ?? (process.env.REVERIE_WORKSPACE || undefined);
  const workspace = await chooseWorkspace(explicit, ctx.settings, ctx.canPrompt);
  return new MemoryService({ dataDir: ctx.dataDir, workspace, readOnlyIndex: options.readOnlyIndex });
}
