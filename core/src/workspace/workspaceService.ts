import type { HandlersFor } from '../contract/index.js';
import { ReverieError } from '../platform/errors.js';
import type { ResolvedWorkspace } from './resolveWorkspace.js';
import type { SettingsStore } from './settingsStore.js';
import { chooseWorkspaceFolder, describeWorkspaceChoice } from './workspaceChoice.js';

export interface WorkspaceServiceOptions {
  settings: SettingsStore;
  workspace: ResolvedWorkspace;
  /** The window can show a folder picker (the desktop host). */
  canPickFolder(): boolean;
  /** The host restarts on the workspace the person chose (desktop engine process); unset: it cannot. */
  onDidChooseWorkspace?: (root: string) => void;
}

/** `settings.*`, and `workspace.info` / `workspace.open`: which folder is the workspace, and choosing another. */
export class WorkspaceService {
  readonly handlers: HandlersFor<'settings.get' | 'settings.set' | 'workspace.info' | 'workspace.open'>;

  constructor(options: WorkspaceServiceOptions) {
    const { settings, workspace } = options;
    this.handlers = {
      'settings.get': async () => settings.read(),
      'settings.set': async ({ patch }) => settings.update(patch),
      'workspace.info': async () => describeWorkspaceChoice(settings, workspace, options.canPickFolder()),
      'workspace.open': async ({ path: folder, create }) => {
        if (folder === null) {
          throw new ReverieError('invalid-input', 'This window cannot show a folder picker: type the full path of the workspace folder.');
        }
        const { root, changed } = chooseWorkspaceFolder(settings, workspace, folder, create);
        // The desktop host restarts its engine on the new workspace; other hosts are started again by the person.
        const restarts = changed && options.onDidChooseWorkspace !== undefined;
        if (restarts) queueMicrotask(() => options.onDidChooseWorkspace?.(root));
        return { root, changed, restartRequired: changed && !restarts };
      },
    };
  }
}
