import type { EngineEvent, HandlersFor } from '../contract/index.js';
import { DEFAULT_EMBEDDING_MODEL_URI } from './defaultModels.js';
import type { Logger } from '../platform/log/logger.js';
import type { ModelStore } from './modelStore.js';

export interface ModelServiceOptions {
  /** The active embedding model changed (used, or removed): the index switches its provider. */
  switchEmbeddingProvider(): Promise<void>;
  logger: Logger;
  /** Download progress goes to every front end as `model-download` events. */
  emit(event: EngineEvent): void;
}

/** `models.*`: the installed models, downloads, and which one is active for each role. */
export class ModelService {
  readonly handlers: HandlersFor<'models.list' | 'models.pull' | 'models.use' | 'models.remove'>;

  constructor(models: ModelStore, options: ModelServiceOptions) {
    const switchFailed = (error: unknown): void => options.logger.warn('Switching the embedding model failed', { error });
    models.onDidProgressDownload(({ uri, bytes, total, rate, etaSeconds, done }) => options.emit({ type: 'model-download', uri, bytes, total, rate, etaSeconds, done }));
    this.handlers = {
      'models.list': async () => {
        const { models: installed, active } = models.list();
        return { models: installed, active, defaultEmbeddingUri: DEFAULT_EMBEDDING_MODEL_URI };
      },
      'models.pull': async ({ uri, role }) => (await models.pull(uri, role)).model,
      'models.use': async ({ model, role }) => {
        const used = models.use(model, role);
        if (used.role === 'embedding') void options.switchEmbeddingProvider().catch(switchFailed);
        return { active: models.list().active };
      },
      'models.remove': async ({ model }) => {
        const { removed, deactivated } = models.remove(model);
        if (deactivated.includes('embedding')) void options.switchEmbeddingProvider().catch(switchFailed);
        return { removed: removed.id };
      },
    };
  }
}
