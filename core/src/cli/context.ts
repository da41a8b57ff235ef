import type { MemoryService } from '../engine/memoryService.js';
import type { ResolvedWorkspace } from '../workspace/resolveWorkspace.js';
import { resolveDataDir } from '../workspace/dataDir.js';
import { SettingsStore } from '../workspace/settingsStore.js';
import { createProgressReporter } from './output.js';
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

/** The workspace a command works on: `workspaceOverride`, --workspace, REVERIE_WORKSPACE, else the one chosen (see chooseWorkspace). */
export function commandWorkspace(ctx: CliContext, workspaceOverride?: string): Promise<ResolvedWorkspace> {
  const explicit = workspaceOverride ?? ctx.workspace ?? (process.env.REVERIE_WORKSPACE || undefined);
  return chooseWorkspace(explicit, ctx.settings, ctx.canPrompt);
}

export async function openService(ctx: CliContext, workspaceOverride?: string): Promise<MemoryService> {
  const workspace = await commandWorkspace(ctx, workspaceOverride);
  // Loaded here, not with this module: `reverie search` reads the index without it (engine/readOnlySearch.ts).
  const { MemoryService } = await import('../engine/memoryService.js');
  // An index of an older layout is migrated as the service opens, whatever the command: say how far it has got.
  const upgrade = createProgressReporter();
  return new MemoryService({
    dataDir: ctx.dataDir,
    workspace,
    onEvent: (e) => {
      if (e.type !== 'index-progress' || e.phase !== 'migrate') return;
      upgrade.update(e);
      if (e.done >= e.total) upgrade.done();
    },
  });
}
