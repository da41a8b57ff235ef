import type { DreamRollbackFile, DreamRun } from '../contract/index.js';
import { writeCuratedFile } from '../workspace/curatedFiles.js';
import { appendDiaryEntry, formatDiaryDate } from './diary/writeDiary.js';
import { quoteEntry } from './diary/quoteEntry.js';
import { readDiarySnapshot } from './diarySnapshot.js';
import type { SweepEnvironment } from './sweepEnvironment.js';

type NoteEnvironment = Pick<SweepEnvironment, 'workspaceRoot' | 'preImages' | 'now' | 'timeZone'>;

/**
 * After a rollback that kept approved promotions, the diary says which and why: the run's own
 * entry is gone with the rest of the run, and without the note the kept lines would be in
 * MEMORY.md or USER.md with nothing in the diary to explain them. A note that cannot be
 * written is reported on the rollback, never fails it (the files are already as they should be).
 */
export function noteKeptPromotions(env: NoteEnvironment, run: DreamRun, files: DreamRollbackFile[]): void {
  const kept = run.promoted.filter((p) => p.decision === 'approved');
  if (kept.length === 0) return;
  const undone = files.filter((f) => f.mode !== 'untouched').map((f) => f.file);
  const stays = kept.map((p) => `${quoteEntry(run.candidates.find((c) => c.key === p.candidateKey)?.text ?? p.candidateKey)} in ${p.target}`);
  const narrative =
    `You rolled back the dream run of ${formatDiaryDate(new Date(run.startedAt), env.timeZone)} (${run.id})` +
    (undone.length > 0 ? `: I took its lines back out of ${joinAnd(undone.map((f) => (f === 'DREAMS.md' ? 'this diary' : f)))}` : '') +
    `. What you had approved stays: ${joinAnd(stays)}.`;
  const report = (detail: string) => {
    const entry = files.find((f) => f.file === 'DREAMS.md');
    if (entry) Object.assign(entry, { mode: 'lines-removed', detail: `${entry.detail} ${detail}` });
    else files.push({ file: 'DREAMS.md', mode: 'noted', detail });
  };
  let diary;
  try {
    diary = readDiarySnapshot(env.workspaceRoot);
  } catch (error) {
    report(`The note about the approved promotions that stay was not written: ${(error as Error).message}`);
    return;
  }
  if (diary.truncated) {
    report('The note about the approved promotions that stay was not written: DREAMS.md is larger than 16 MB.');
    return;
  }
  const edit = appendDiaryEntry(diary.text, { dateLine: formatDiaryDate(new Date(env.now()), env.timeZone), runId: run.id, narrative });
  const result = writeCuratedFile(diary, edit.text, env.preImages, `rollback note for ${run.id}`, run.id);
  if (result.outcome === 'aborted') report(`The note about the approved promotions that stay was not written: ${result.reason}`);
  else report('A note in the diary says which approved promotions stay.');
}

function joinAnd(items: string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
