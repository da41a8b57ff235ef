import type { DreamPromotion, DreamRun } from '../contract/index.js';
import { gateFunnel } from './diary/gateFunnel.js';
import { appendDiaryEntry, formatDiaryDate, prependHistoryItem, recordDeepSleep } from './diary/writeDiary.js';
import type { TextEdit } from './types.js';

/** What the diary update reads: the run record, its narrative written. */
export type DiaryRun = Pick<DreamRun, 'id' | 'startedAt' | 'narrative' | 'candidates' | 'promoted' | 'thresholds'>;

/** This run's additions to DREAMS.md: the narrative entry, the Deep Sleep block, and a history item when memory changed. */
export function planDiaryEdit(diaryText: string, run: DiaryRun, timeZone?: string): TextEdit {
  const added: string[] = [];
  const changed: TextEdit['changed'] = [];
  const apply = (edit: TextEdit): string => {
    added.push(...edit.added);
    changed.push(...edit.changed);
    return edit.text;
  };
  const startedAt = new Date(run.startedAt);
  let text = apply(appendDiaryEntry(diaryText, { dateLine: formatDiaryDate(startedAt, timeZone), runId: run.id, narrative: run.narrative ?? '' }));
  text = apply(recordDeepSleep(text, deepSleepLines(run)));
  const written = run.promoted.filter((p) => p.decision === 'auto' || p.decision === 'approved');
  if (written.length > 0) {
    const count = (a: DreamPromotion['action']) => written.filter((p) => p.action === a).length;
    const highlights = written.flatMap((p) => [`+ ${entryWords(p.lines.at(-1) ?? '')}`, ...p.priorEntries.map((prior) => `- ${entryWords(prior)}`)]);
    text = apply(prependHistoryItem(text, { at: startedAt.toISOString(), added: count('added'), merged: count('merged'), superseded: count('superseded'), highlights }));
  }
  return { text, added, changed };
}

/** The Deep Sleep status block: the counts behind the narrative, gate by gate. */
function deepSleepLines(run: DiaryRun): string[] {
  const t = run.thresholds;
  const funnel = gateFunnel(run.candidates, t);
  const limit = funnel.limit ? `; the limit of ${t.maxPromotions} a night let ${funnel.limit.through} through` : '';
  const gates = funnel.steps.map((step) => `${step.gate} ${step.passed}`).join(', ');
  const written = run.promoted.filter((p) => p.decision === 'auto' || p.decision === 'approved');
  const into = (['MEMORY.md', 'USER.md'] as const).map((f) => [f, written.filter((p) => p.target === f).length] as const).filter(([, n]) => n > 0);
  const proposed = run.promoted.filter((p) => p.decision === 'proposed').length;
  return [
    `- Ranked ${funnel.looked} candidate(s); ${funnel.passedGates} passed every gate (minScore ${t.minScore}, minRecallCount ${t.minRecallCount}, minUniqueQueries ${t.minUniqueQueries})${limit}.`,
    ...(gates ? [`- Passed, gate by gate: ${gates}.`] : []),
    `- Promoted ${written.length} candidate(s)${into.length > 0 ? ` (${into.map(([f, n]) => `${n} into ${f}`).join(', ')})` : ''}${proposed > 0 ? `; ${proposed} staged for review` : ''}.`,
  ];
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
