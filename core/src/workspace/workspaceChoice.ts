import fs from 'node:fs';
import path from 'node:path';
import type { WorkspaceInfo } from '../api/contract.js';
import { ReverieError } from '../common/errors.js';
import { defaultWorkspaceDir, openClawWorkspaceDir } from './dataDir.js';
import { createStarterWorkspace, resolveExistingWorkspace, type ResolvedWorkspace } from './resolveWorkspace.js';
import type { SettingsStore } from './settingsStore.js';

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
