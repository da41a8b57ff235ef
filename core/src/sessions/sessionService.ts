import fs from 'node:fs';
import path from 'node:path';
import type { EngineEvent, HandlersFor, IngestReport, Settings, StatusOutput } from '../contract/index.js';
import type { IndexService } from '../index/indexService.js';
import type { SettingsStore } from '../workspace/settingsStore.js';
import { ingestTranscripts } from './ingestTranscripts.js';
import { sessionTotals } from './sessionStore.js';
import { defaultToolHomes, emptyIngestReport } from './toolHomes.js';

export interface SessionServiceOptions {
  settings: SettingsStore;
  index: IndexService;
  emit(event: EngineEvent): void;
}

/**
 * Agent transcripts as the `sessions` source: `sessions.ingest` chooses the tools' folders,
 * and every sync ingests what they hold (`ingestDuringSync`, a step the engine connects).
 */
export class SessionService {
  readonly handlers: HandlersFor<'sessions.ingest'>;

  constructor(private readonly options: SessionServiceOptions) {
    const { settings, index } = options;
    this.handlers = {
      'sessions.ingest': async ({ homes }) => {
        const chosen = { ...settings.read().sessions };
        const given = Object.entries(homes);
        if (given.length === 0) {
          // No folders named: every tool whose default home exists.
          for (const [tool, dir] of Object.entries(defaultToolHomes())) if (fs.existsSync(dir)) chosen[tool] = dir;
        } else for (const [tool, dir] of given) chosen[tool] = dir ? path.resolve(dir) : null;
        settings.update({ sessions: chosen });
        const report = await index.sync(false);
        return report.sessions ?? emptyIngestReport();
      },
    };
  }

  /** A sync's transcripts step: null when no tool's folder is set. */
  async ingestDuringSync(settings: Settings): Promise<IngestReport | null> {
    const sources = settings.sessions;
    if (!Object.values(sources).some((home) => home !== null)) return null;
    return ingestTranscripts(this.options.index.db, this.options.index.store, sources, {
      maxBytes: settings.maxTranscriptSizeMB * 1024 * 1024,
      memoryLines: this.memoryLines(),
      onProgress: (p) => this.options.emit({ type: 'index-progress', phase: 'sessions', ...p }),
    });
  }

  /** The `sessions` part of `status`. */
  describe(): StatusOutput['sessions'] {
    return sessionTotals(this.options.index.db);
  }

  /**
   * Lines of the workspace's memory: transcript text that merely repeats them was recalled, not
   * said. Read when the first transcript reader starts (a sync whose transcripts are all unchanged
   * never reads them), one chunk at a time: the readers keep only their hashes.
   */
  private memoryLines(): () => Iterable<string> {
    const store = this.options.index.store;
    return function* () {
      for (const text of store.memoryChunkTexts(20_000)) yield* text.split('\n');
    };
  }

}
