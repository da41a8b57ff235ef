import type { OperationOutput, WorkspaceInfo } from '../../../core/src/contract/index.js';
import { errorMessage } from '../client/memoryClient.js';
import type { SliceContext } from './types.js';

export type WorkspaceChoice = OperationOutput<'workspace.open'>;

/**
 * hidden: not the first run, or done. choose: the three ways to pick a workspace. opening: a
 * workspace.open call is on its way. switching: the desktop engine restarts on the new folder
 * (the page reloads when it runs). chosen: the choice is made; offer imports or the restart command.
 */
export type WelcomePhase = 'hidden' | 'choose' | 'opening' | 'switching' | 'chosen';

export interface WelcomeSlice {
  info: WorkspaceInfo | null;
  phase: WelcomePhase;
  isLoading: boolean;
  /** The engine's message when a choice failed (it names the problem, e.g. a folder that does not exist). */
  error: string | null;
  /** Set when the folder picker was closed without choosing another folder. */
  notice: string | null;
  choice: WorkspaceChoice | null;
  /** Browser (no folder picker): the typed folder and whether to create it. */
  isTypingPath: boolean;
  typedPath: string;
  createIfMissing: boolean;

  load(): Promise<void>;
  keepWorkspace(): Promise<void>;
  openOpenClaw(): Promise<void>;
  /** The folder picker when the host has one, otherwise the typed-path form. */
  chooseAnotherFolder(): Promise<void>;
  setTypedPath(path: string): void;
  setCreateIfMissing(create: boolean): void;
  openTypedPath(): Promise<void>;
  /** Closing the welcome keeps the open workspace (and marks the welcome as seen). */
  dismiss(): Promise<void>;
  openImports(): void;
  close(): void;
}

/** The exact command that starts `reverie serve` on a workspace. */
export function serveCommandFor(root: string): string {
  return `reverie serve --workspace "${root}"`;
}

// The desktop app reloads the page once the engine runs on the chosen folder; this note survives it.
const OFFER_IMPORTS_KEY = 'reverie.welcome.offerImports';

function rememberImportOffer(): void {
  try {
    globalThis.sessionStorage?.setItem(OFFER_IMPORTS_KEY, '1');
  } catch {
    // Without storage the offer is lost on reload; the Imports view is still one click away.
  }
}

function takeImportOffer(): boolean {
  try {
    const isPending = globalThis.sessionStorage?.getItem(OFFER_IMPORTS_KEY) === '1';
    if (isPending) globalThis.sessionStorage.removeItem(OFFER_IMPORTS_KEY);
    return isPending;
  } catch {
    return false;
  }
}

export function createWelcomeSlice({ set, get, client }: SliceContext<'welcome'>): WelcomeSlice {
  async function open(path: string | null, create = false): Promise<WorkspaceChoice | null> {
    set({ phase: 'opening', error: null, notice: null });
    try {
      return await client.call('workspace.open', { path, create });
    } catch (error) {
      set({ phase: 'choose', error: errorMessage(error) });
      return null;
    }
  }

  function showChoice(choice: WorkspaceChoice): void {
    if (choice.changed && !choice.restartRequired) {
      rememberImportOffer();
      set({ phase: 'switching', choice });
    } else {
      set({ phase: 'chosen', choice, isTypingPath: false });
    }
  }

  return {
    info: null,
    phase: 'hidden',
    isLoading: false,
    error: null,
    notice: null,
    choice: null,
    isTypingPath: false,
    typedPath: '',
    createIfMissing: false,

    async load() {
      if (get().welcome.isLoading) return;
      set({ isLoading: true });
      try {
        const info = await client.call('workspace.info', {});
        if (takeImportOffer()) {
          set({ info, isLoading: false, phase: 'chosen', choice: { root: info.root, changed: true, restartRequired: false } });
        } else {
          set({ info, isLoading: false, phase: info.firstRun ? 'choose' : 'hidden' });
        }
      } catch {
        // An unreachable engine is reported by the connection banner; loading again follows a reconnect.
        set({ isLoading: false });
      }
    },

    async keepWorkspace() {
      const { info } = get().welcome;
      if (!info) return;
      const choice = await open(info.root);
      if (choice) showChoice(choice);
    },

    async openOpenClaw() {
      const { info } = get().welcome;
      if (!info?.openClaw) return;
      const choice = await open(info.openClaw);
      if (choice) showChoice(choice);
    },

    async chooseAnotherFolder() {
      const { info } = get().welcome;
      if (!info) return;
      if (!info.canPickFolder) {
        set({ isTypingPath: true, error: null, notice: null });
        return;
      }
      const choice = await open(null);
      if (!choice) return;
      // Unchanged from the picker: cancelled, or the open folder chosen again. Let them choose again.
      if (!choice.changed) set({ phase: 'choose', notice: `No other folder was chosen; the workspace stays at ${choice.root}.` });
      else showChoice(choice);
    },

    setTypedPath(typedPath) {
      set({ typedPath });
    },

    setCreateIfMissing(createIfMissing) {
      set({ createIfMissing });
    },

    async openTypedPath() {
      const { typedPath, createIfMissing } = get().welcome;
      const path = typedPath.trim();
      if (!path) {
        set({ error: 'Type the full path of the folder to use as your workspace.' });
        return;
      }
      const choice = await open(path, createIfMissing);
      if (choice) showChoice(choice);
    },

    async dismiss() {
      const { info } = get().welcome;
      if (!info) {
        set({ phase: 'hidden' });
        return;
      }
      const choice = await open(info.root);
      if (choice) set({ phase: 'hidden', choice });
    },

    openImports() {
      set({ phase: 'hidden' });
      get().app.setView('imports');
    },

    close() {
      set({ phase: 'hidden' });
    },
  };
}
