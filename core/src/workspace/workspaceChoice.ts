import fs from 'node:fs';
import path from 'node:path';
import type { WorkspaceInfo } from '../contract/index.js';
import { ReverieError } from '../platform/errors.js';
import { defaultWorkspaceDir, openClawWorkspaceDir } from './dataDir.js';
import { createStarterWorkspace, resolveExistingWorkspace, type ResolvedWorkspace } from './resolveWorkspace.js';
import type { SettingsStore } from './settingsStore.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('workspace');

/** What the first-run welcome offers: keep this workspace, open the OpenClaw one, or another folder. */
export function describeWorkspaceChoice(settings: SettingsStore, current: ResolvedWorkspace, canPickFolder: boolean): WorkspaceInfo {
  const openClaw = openClawWorkspaceDir();
  const openClawExists = fs.existsSync(openClaw) && fs.statSync(openClaw).isDirectory();
  return {
    root: current.root,
    firstRun: !settings.read().firstRunDone,
    openClaw: openClawExists && fs.realpathSync.native(openClaw) !== current.root ? openClaw : null,
    starterDir: defaultWorkspaceDir(),
    canPickFolder,
  };
}

/**
 * Records the person's choice of workspace (and that the welcome was seen). A missing folder is
 * created with starter files only when asked to (`create`), never for a mistyped path.
 */
export function chooseWorkspaceFolder(settings: SettingsStore, current: ResolvedWorkspace, folder: string, create: boolean): { root: string; changed: boolean } {
  if (!path.isAbsolute(folder)) {
    throw new ReverieError('invalid-input', `Workspace path "${folder}" is not absolute. Give the full path of a folder.`);
  }
  const chosen = create && !fs.existsSync(folder) ? createStarterWorkspace(folder) : resolveExistingWorkspace(folder);
  settings.update({ workspace: chosen.root, firstRunDone: true });
  return { root: chosen.root, changed: chosen.root !== current.root };
}

/**
 * The workspace a long-running host (the desktop engine) opens: the one named on its command
 * line, else the one chosen earlier, else a new starter workspace. When the one chosen earlier
 * has gone, it opens the starter workspace and says so (with the welcome shown again), rather
 * than failing to start: the person can only choose another folder from a running app.
 */
export function openHostWorkspace(explicit: string | undefined, settings: SettingsStore): { workspace: ResolvedWorkspace; notice: string | null } {
  if (explicit) return { workspace: resolveExistingWorkspace(explicit), notice: null };
  const saved = settings.read().workspace;
  if (saved) {
    try {
      return { workspace: resolveExistingWorkspace(saved), notice: null };
    } catch (error) {
      log.warn('The saved workspace is gone; the starter workspace opens instead', { saved, error });
      const starter = createDefaultWorkspace(settings, { firstRunDone: false });
      return { workspace: starter, notice: `The workspace chosen earlier, ${saved}, no longer exists; opened ${starter.root} instead. Restore the folder, or choose another with File › Open Workspace….` };
    }
  }
  return { workspace: createDefaultWorkspace(settings), notice: null };
}

/** `~/Reverie` with starter files (never overwriting), saved as the chosen workspace. */
export function createDefaultWorkspace(settings: SettingsStore, extra: { firstRunDone?: boolean } = {}): ResolvedWorkspace {
  const starter = createStarterWorkspace(defaultWorkspaceDir());
  settings.update({ workspace: starter.root, ...extra });
  return starter;
}
