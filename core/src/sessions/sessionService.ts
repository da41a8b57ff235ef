import fs from 'node:fs';
import path from 'node:path';
import type { EngineEvent, HandlersFor, IngestReport, Settings, StatusOutput } from '../contract/index.js';
import type { IndexService } from '../index/indexService.js';
import type { SettingsStore } from '../workspace/settingsStore.js';
import { ingestTranscripts } from './ingestTranscripts.js';
import { recalledLineMatcher, type RecalledTextCheck } from './recalled.js';
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
      'sessions.ingest': async (input) => {
        const current = settings.read().sessions;
        const chosen = { ...current };
        const given = (['codex', 'claude', 'openclaw'] as const).filter((k) => input[k] !== undefined);
        if (given.length === 0) {
          // No folders named: every tool whose default home exists.
          for (const [k, dir] of Object.entries(defaultToolHomes()) as Array<[keyof typeof chosen, string]>) if (fs.existsSync(dir)) chosen[k] = dir;
        } else for (const k of given) chosen[k] = input[k] === null ? null : path.resolve(input[k]!);
        settings.update({ sessions: chosen });
        const report = await index.sync(false);
        return report.sessions ?? emptyIngestReport();
      },
    };
  }

  /** A sync's transcripts step: null when no tool's folder is set. */
  async ingestDuringSync(settings: Settings): Promise<IngestReport | null> {
    const sources = settings.sessions;
    if (!(sources.codex || sources.claude || sources.openclaw)) return null;
    return ingestTranscripts(this.options.index.db, this.options.index.store, sources, {
      maxBytes: settings.maxTranscriptSizeMB * 1024 * 1024,
      isRecalledText: this.recalledMatcher(),
      onProgress: (p) => this.options.emit({ type: 'index-progress', phase: 'sessions', ...p }),
    });
  }

  /** The `sessions` part of `status`. */
  describe(): StatusOutput['sessions'] {
    return sessionTotals(this.options.index.db);
  }

  /**
   * Lines of the workspace's memory: transcript text that merely repeats them was recalled, not
   * said. Built on first use, so a sync whose transcripts are all unchanged never reads them.
   */
  private recalledMatcher(): RecalledTextCheck {
    let check: RecalledTextCheck | null = null;
    return (line) => {
      if (!check) check = recalledLineMatcher(this.options.index.store.memoryChunkTexts(20_000).flatMap((text) => text.split('\n')));
      return check(line);
    };
  }
}
