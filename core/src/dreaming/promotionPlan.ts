import type { DreamPromotion } from '../contract/index.js';
import { parseMarkdownEntries } from '../workspace/markdownEntries.js';
import type { ConsolidationCandidate } from './consolidation/prompt.js';
import { promotionEntryLine, promotionMarker } from './curated/memoryFile.js';
import { directiveLine } from './curated/userFile.js';
import { isSameLineage, lineageKeyFor } from './lineage.js';
import type { GatheredEntry } from './phases/gatheredEntry.js';
import { noteDayOf, type RankedCandidate } from './phases/deepPhase.js';
import type { PromotionToWrite } from './types.js';

/** A promotion for the deterministic writer, from a ranked candidate. */
export function toPromotion(r: RankedCandidate, memoryText: string): PromotionToWrite {
  const { entry, candidate } = r;
  return {
    candidateKey: entry.key,
    path: entry.path,
    startLine: entry.startLine,
    endLine: entry.endLine,
    text: entry.text,
    annotations: entry.annotations,
    score: candidate.score,
    recallCount: candidate.signals.recallCount,
    meanScore: candidate.signals.meanScore,
    signalCount: candidate.signals.recallCount + (entry.writtenAt !== null ? 1 : 0),
    lineageKey: lineageFor(entry, memoryText),
    observedDay: noteDayOf(entry),
  };
}

export function toConsolidationCandidate(p: PromotionToWrite): ConsolidationCandidate {
  return { candidateKey: p.candidateKey, path: p.path, startLine: p.startLine, endLine: p.endLine, text: p.text, lineageKey: p.lineageKey, annotations: p.annotations };
}

/** An existing lineage marker in MEMORY.md about the same subject is reused, so supersession can follow it. */
function lineageFor(entry: GatheredEntry, memoryText: string): string {
  for (const existing of parseMarkdownEntries(memoryText)) {
    const key = existing.annotations.lineageKeys[0];
    if (key && isSameLineage(existing.body, entry.text)) return key;
  }
  return lineageKeyFor(entry.text);
}

/** The lines a proposal would write, shown for review before anything is written. */
export function proposedLines(p: PromotionToWrite, target: 'MEMORY.md' | 'USER.md'): string[] {
  return target === 'USER.md' ? [directiveLine({ text: p.text, observed: p.observedDay ?? null, annotations: p.annotations })] : [promotionMarker(p.candidateKey), promotionEntryLine(p)];
}

export function promotionRecord(candidateKey: string, target: 'MEMORY.md' | 'USER.md', lines: string[], decision: DreamPromotion['decision'], action: DreamPromotion['action'] = 'added', priorEntries: string[] = []): DreamPromotion {
  return { candidateKey, target, action, lines, priorEntries, decision, decidedAt: null };
}
