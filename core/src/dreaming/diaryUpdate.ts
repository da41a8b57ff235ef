import type { DreamPromotion } from '../contract/index.js';
import { appendDiaryEntry, formatDiaryDate, prependHistoryItem, recordDeepSleep } from './diary/writeDiary.js';
import type { Thresholds } from './phases/deepPhase.js';
import type { TextEdit } from './types.js';

export interface DiaryRunFacts {
  runId: string;
  startedAt: Date;
  narrative: string;
  ranked: number;
  passed: number;
  written: readonly DreamPromotion[];
  proposed: number;
  thresholds: Thresholds;
  timeZone?: string;
}

/** This run's additions to DREAMS.md: the narrative entry, the Deep Sleep block, and a history item when memory changed. */
export function planDiaryEdit(diaryText: string, facts: DiaryRunFacts): TextEdit {
  const added: string[] = [];
  const changed: TextEdit['changed'] = [];
  const apply = (edit: TextEdit): string => {
    added.push(...edit.added);
    changed.push(...edit.changed);
    return edit.text;
  };
  let text = apply(appendDiaryEntry(diaryText, { dateLine: formatDiaryDate(facts.startedAt, facts.timeZone), runId: facts.runId, narrative: facts.narrative }));
  const t = facts.thresholds;
  const deep = [
    `- Ranked ${facts.ranked} candidate(s); ${facts.passed} passed the gates (minScore ${t.minScore}, minRecallCount ${t.minRecallCount}, minUniqueQueries ${t.minUniqueQueries}).`,
    `- Promoted ${facts.written.length} candidate(s) into MEMORY.md/USER.md${facts.proposed > 0 ? `; ${facts.proposed} staged for review` : ''}.`,
  ];
  text = apply(recordDeepSleep(text, deep));
  if (facts.written.length > 0) {
    const count = (a: DreamPromotion['action']) => facts.written.filter((p) => p.action === a).length;
    const highlights = facts.written.slice(0, 5).flatMap((p) => [
      `+ ${entryWords(p.lines.at(-1) ?? '')}`,
      ...p.priorEntries.slice(0, 2).map((prior) => `- ${entryWords(prior)}`),
    ]);
    text = apply(prependHistoryItem(text, { at: facts.startedAt.toISOString(), added: count('added'), merged: count('merged'), superseded: count('superseded'), highlights }));
  }
  return { text, added, changed };
}

/** An entry line without bullet, annotations, metadata or source reference: what a person reads in a highlight. */
function entryWords(line: string): string {
  return line
    .replace(/^\s*-\s+/, '')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/\[score=[^\]]*\]/, ' ')
    .replace(/Source:\s*\S+#L\d+(?:-L\d+)?/, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
