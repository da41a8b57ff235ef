import { MemoryService } from '../engine/memoryService.js';
import { resolveDataDir } from '../workspace/dataDir.js';
import { SettingsStore } from '../workspace/settingsStore.js';
import { chooseWorkspace } from './workspaceChoice.js';

export interface CliOptions {
  workspace?: string;
  dataDir?: string;
  json: boolean;
  limit?: string;
  source?: string[];
  force: boolean;
  port?: string;
  open: boolean;
  demo: boolean;
  role?: string;
  session?: string;
  path?: string;
  dryRun: boolean;
  codex?: string;
  claude?: string;
  openclaw?: string;
  from?: string;
  plan?: string;
  replace: boolean;
  backfill?: string;
  write: boolean;
  token?: string;
  rollback?: string;
  minScore?: string;
  minRecallCount?: string;
  minUniqueQueries?: string;
  /** `search --graph`: also print matching graph entities. */
  graph: boolean;
  hops?: string;
  /** `logs`: the lowest level shown, and whether to keep printing new records. */
  level?: string;
  follow?: boolean;
}

export interface CliContext {
  options: CliOptions;
  positionals: string[];
  dataDir: string;
  settings: SettingsStore;
  canPrompt: boolean;
}

export function createContext(options: CliOptions, positionals: string[]): CliContext {
  const dataDir = resolveDataDir(options.dataDir);
  return {
    options,
    positionals,
    dataDir,
    settings: new SettingsStore(dataDir),
    canPrompt: Boolean(process.stdin.isTTY && process.stderr.isTTY) && !options.json,
  };
}

export async function openService(ctx: CliContext, workspaceOverride?: string): Promise<MemoryService> {
  const explicit = workspaceOverride ?? ctx.options.workspace ?? (process.env.REVERIE_WORKSPACE || undefined);
  const workspace = await chooseWorkspace(explicit, ctx.settings, ctx.canPrompt);
  return new MemoryService({ dataDir: ctx.dataDir, workspace });
}
