import type { HandlersFor } from '../contract/index.js';
import { DEFAULT_EMBEDDING_MODEL_URI } from './defaultModels.js';
import type { ModelStore } from './modelStore.js';

export interface ModelServiceOptions {
  /** The active embedding model changed (used, or removed): the index switches its provider. */
  switchEmbeddingProvider(): Promise<void>;
}

/** `models.*`: the installed models, downloads, and which one is active for each role. */
export class ModelService {
  readonly handlers: HandlersFor<'models.list' | 'models.pull' | 'models.use' | 'models.remove'>;

  constructor(models: ModelStore, options: ModelServiceOptions) {
    this.handlers = {
      'models.list': async () => {
        const { models: installed, active } = models.list();
        return { models: installed, active, defaultEmbeddingUri: DEFAULT_EMBEDDING_MODEL_URI };
      },
      'models.pull': async ({ uri, role }) => (await models.pull(uri, role)).model,
      'models.use': async ({ model, role }) => {
        const used = models.use(model, role);
        if (used.role === 'embedding') void options.switchEmbeddingProvider().catch(() => undefined);
        return { active: models.list().active };
      },
      'models.remove': async ({ model }) => {
        const { removed, deactivated } = models.remove(model);
        if (deactivated.includes('embedding')) void options.switchEmbeddingProvider().catch(() => undefined);
        return { removed: removed.id };
      },
    };
  }
}
