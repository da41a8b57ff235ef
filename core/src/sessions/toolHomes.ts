import os from 'node:os';
import path from 'node:path';
import type { IngestReport } from '../contract/index.js';
import type { TranscriptSources } from './transcriptDiscovery.js';

/** Where each agent tool keeps its data when nothing else is configured. */
export function defaultToolHomes(env: NodeJS.ProcessEnv = process.env): Record<keyof TranscriptSources, string> {
  const home = os.homedir();
  return {
    codex: env.CODEX_HOME || path.join(home, '.codex'),
    claude: path.join(home, '.claude'),
    openclaw: path.join(home, '.openclaw'),
  };
}

export function emptyIngestReport(): IngestReport {
  return {
    transcripts: 0, added: 0, appended: 0, unchanged: 0, removed: 0, skipped: 0, failed: 0, messages: 0,
    unknownLines: 0, malformedLines: 0, redactions: 0, recalledStripped: 0, durationMs: 0, problems: [],
  };
}
