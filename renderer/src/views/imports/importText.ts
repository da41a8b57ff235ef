import type { ImportProgress } from '../../store/importsSlice.js';

const PHASE_LABELS: Record<ImportProgress['phase'], string> = {
  checking: 'Checking the sources against the plan',
  staging: 'Copying',
  backup: 'Backing up files to replace',
  commit: 'Moving files into place',
  done: 'Finishing',
};

/** One line for the import progress bar: `Copying 12 of 40`. */
export function importProgressText(progress: ImportProgress): string {
  const label = PHASE_LABELS[progress.phase];
  return progress.total > 0 && progress.phase !== 'done' ? `${label} ${progress.done} of ${progress.total}` : label;
}

/** `3 copied · 1 replaced · 5 unchanged · 2 skipped`. */
export function reportCountsText(counts: { copied: number; replaced: number; unchanged: number; skipped: number }): string {
  return `${counts.copied} copied · ${counts.replaced} replaced · ${counts.unchanged} unchanged · ${counts.skipped} skipped`;
}
