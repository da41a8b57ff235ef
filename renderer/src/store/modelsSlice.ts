import type { EngineEvent, ModelInfo, ModelRole, OperationOutput } from '../../../core/src/contract/index.js';
import { errorMessage } from '../client/memoryClient.js';
import type { SliceContext } from './types.js';

export type ModelsList = OperationOutput<'models.list'>;
export type DownloadEvent = Extract<EngineEvent, { type: 'model-download' }>;

export const MODEL_ROLES: ModelRole[] = ['embedding', 'chat'];

/** A `models.pull` started from this window, and how it ended. */
export interface PullState {
  uri: string;
  role: ModelRole;
  state: 'running' | 'done' | 'error';
  error: string | null;
  /** The installed model, once the pull succeeded. */
  model: ModelInfo | null;
}

/** The latest `model-download` event (a download may also have been started elsewhere, e.g. the CLI). */
export interface DownloadProgress {
  uri: string;
  bytes: number;
  total: number | null;
  rate: number;
  etaSeconds: number | null;
  done: boolean;
}

export interface ModelsSlice {
  list: ModelsList | null;
  listState: 'idle' | 'loading' | 'ready' | 'error';
  listError: string | null;
  pullUri: string;
  pullRole: ModelRole;
  pull: PullState | null;
  download: DownloadProgress | null;
  /** Id of the model a Use or Remove is running for. */
  busyModel: string | null;
  /** Why the last Use or Remove failed. */
  actionError: string | null;

  load(): Promise<void>;
  setPullUri(uri: string): void;
  setPullRole(role: ModelRole): void;
  /** The URI a pull would use now: what was typed, or the default embedding model when left empty. */
  effectivePullUri(): string;
  startPull(): Promise<void>;
  use(model: ModelInfo): Promise<void>;
  remove(model: ModelInfo): Promise<void>;
  onDownload(event: DownloadEvent): void;
}

/** Installed models grouped by role, in a stable order (active first, then newest). */
export function groupModelsByRole(models: ModelInfo[]): Array<{ role: ModelRole; models: ModelInfo[] }> {
  return MODEL_ROLES.map((role) => ({
    role,
    models: models
      .filter((m) => m.role === role)
      .sort((a, b) => Number(b.active) - Number(a.active) || b.addedAt.localeCompare(a.addedAt) || a.file.localeCompare(b.file)),
  }));
}

export function createModelsSlice({ set, get, client, confirm }: SliceContext<'models'>): ModelsSlice {
  const slice = () => get().models;
  let latestLoad = 0;

  /** After a change: the list, and the status (the active embedding generation may have changed). */
  async function reloadAfterChange(): Promise<void> {
    await Promise.all([slice().load(), get().status.refresh()]);
  }

  return {
    list: null,
    listState: 'idle',
    listError: null,
    pullUri: '',
    pullRole: 'embedding',
    pull: null,
    download: null,
    busyModel: null,
    actionError: null,

    async load() {
      const request = ++latestLoad;
      if (!slice().list) set({ listState: 'loading' });
      try {
        const list = await client.call('models.list', {});
        if (request !== latestLoad) return;
        set({ list, listState: 'ready', listError: null });
      } catch (error) {
        if (request !== latestLoad) return;
        set({ listState: 'error', listError: errorMessage(error) });
      }
    },

    setPullUri(pullUri) {
      set({ pullUri });
    },

    setPullRole(pullRole) {
      set({ pullRole });
    },

    effectivePullUri() {
      const { pullUri, pullRole, list } = slice();
      const typed = pullUri.trim();
      if (typed !== '') return typed;
      return pullRole === 'embedding' ? (list?.defaultEmbeddingUri ?? '') : '';
    },

    async startPull() {
      const { pull, pullRole } = slice();
      if (pull?.state === 'running') return;
      const uri = slice().effectivePullUri();
      if (uri === '') {
        set({ pull: { uri, role: pullRole, state: 'error', error: 'Enter a model URI (hf:… or https://…) or the path of a local .gguf file.', model: null } });
        return;
      }
      set({ pull: { uri, role: pullRole, state: 'running', error: null, model: null }, download: null, actionError: null });
      try {
        const model = await client.call('models.pull', { uri, role: pullRole });
        set({ pull: { uri, role: pullRole, state: 'done', error: null, model }, pullUri: '' });
        await reloadAfterChange();
      } catch (error) {
        set((m) => ({
          pull: { uri, role: pullRole, state: 'error', error: errorMessage(error), model: null },
          // A failed download sends no final event: do not leave a bar that looks alive.
          download: m.download ? { ...m.download, rate: 0, etaSeconds: null } : null,
        }));
      }
    },

    async use(model) {
      if (slice().busyModel) return;
      set({ busyModel: model.id, actionError: null });
      try {
        await client.call('models.use', { model: model.id, role: model.role });
        set({ busyModel: null });
        await reloadAfterChange();
      } catch (error) {
        set({ busyModel: null, actionError: `Could not switch to ${model.file}: ${errorMessage(error)}` });
      }
    },

    async remove(model) {
      if (slice().busyModel) return;
      const warning = model.active ? ' It is the active model for its role.' : '';
      if (!confirm(`Delete ${model.file} (${model.role})?${warning} The file is removed from disk.`)) return;
      set({ busyModel: model.id, actionError: null });
      try {
        await client.call('models.remove', { model: model.id });
        set({ busyModel: null });
        await reloadAfterChange();
      } catch (error) {
        set({ busyModel: null, actionError: `Could not remove ${model.file}: ${errorMessage(error)}` });
      }
    },

    onDownload(event) {
      const { uri, bytes, total, rate, etaSeconds, done } = event;
      set({ download: { uri, bytes, total, rate, etaSeconds, done } });
    },
  };
}
