import type { IngestReport } from '../contract/index.js';
import { transcriptTools } from '../contract/index.js';
import { defaultToolHome, type ToolHomeOptions } from '../platform/toolHome.js';

/** Where each transcript tool keeps its data when nothing else is configured, by tool id. */
export function defaultToolHomes(options: ToolHomeOptions = {}): Record<string, string> {
  return Object.fromEntries(transcriptTools().map((tool) => [tool.id, defaultToolHome(tool, options)]));
}

export function emptyIngestReport(): IngestReport {
  return {
    transcripts: 0, added: 0, appended: 0, unchanged: 0, removed: 0, skipped: 0, failed: 0, messages: 0,
    unknownLines: 0, malformedLines: 0, redactions: 0, recalledStripped: 0, durationMs: 0, problems: [],
  };
}
