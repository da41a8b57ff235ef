import type { MatchedEntry } from '../../contract/index.js';
import { activeEntries, sameProject } from './activeEntries.js';
import { readCuratedText, type CuratedName } from './curatedText.js';
import { prepareMessage, scoreTrigger } from './triggerScore.js';

export type OriginClass = MatchedEntry['origin'];

export interface MatchOptions {
  workspaceRoot: string;
  message: string;
  project?: string;
  /** Minimum score of an entry's best trigger (see triggerScore.ts), before any project boost. */
  threshold?: number;
  limit?: number;
  /** Provenance of an entry's first line; curated files are the person's own unless told otherwise. */
  originOf?: (path: string, line: number) => OriginClass;
}

/** Added to entries annotated with the asked-for project: they win ties and near ties, never pass the threshold by it. */
export const PROJECT_BOOST = 0.05;

const SET_BY_AGENT = /<!--\s*set-by:\s*agent\b/i;

const CURATED_FILES: readonly CuratedName[] = ['MEMORY.md', 'USER.md'];

/** Curated entries whose `<!-- trigger: … -->` phrases the message strongly calls for, best first. No model call. */
export function matchCuratedEntries({ workspaceRoot, message, project, threshold = 0.72, limit = 3, originOf = () => 'owner' }: MatchOptions): MatchedEntry[] {
  const prepared = prepareMessage(message);
  const matches: Array<MatchedEntry & { boosted: boolean }> = [];
  for (const file of CURATED_FILES) {
    // A symlinked or non-UTF-8 curated file offers nothing (bootstrap reports why).
    for (const entry of activeEntries(readCuratedText(workspaceRoot, file).text)) {
      const { triggers } = entry.annotations;
      if (triggers.length === 0) continue;
      // A trigger injects into sessions only from the person's own line: one an agent set (marked or recorded) waits until the person confirms it.
      if (SET_BY_AGENT.test(entry.raw)) continue;
      const origin = originOf(file, entry.startLine);
      if (origin !== 'owner') continue;
      const best = Math.max(...triggers.map((trigger) => scoreTrigger(prepared, trigger)));
      if (best < threshold) continue;
      const boosted = sameProject(entry.annotations.project, project);
      const score = Math.min(1, best + (boosted ? PROJECT_BOOST : 0));
      matches.push({ path: file, line: entry.startLine, text: entry.body, triggers, score, origin, boosted });
    }
  }
  matches.sort((a, b) => b.score - a.score || Number(b.boosted) - Number(a.boosted) || a.path.localeCompare(b.path) || a.line - b.line);
  return matches.slice(0, Math.max(0, limit)).map(({ boosted: _boosted, ...entry }) => entry);
}
