import type {
  DiaryEntry,
  DreamCandidate,
  DreamFileWrite,
  DreamGateName,
  DreamPromotion,
  DreamRunStatus,
  DreamRunSummary,
} from '../../../../core/src/contract/index.js';
import type { BadgeTone } from '../../components/Badge.js';
import type { DreamProgress } from '../../store/dreamsSlice.js';
import { formatTime } from '../format.js';

export const STATUS_LABEL: Record<DreamRunStatus, string> = {
  running: 'running',
  ok: 'ok',
  'nothing-to-do': 'nothing to do',
  skipped: 'skipped',
  failed: 'failed',
};

export const STATUS_TONE: Record<DreamRunStatus, BadgeTone> = {
  running: 'info',
  ok: 'ok',
  'nothing-to-do': 'neutral',
  skipped: 'warn',
  failed: 'error',
};

export const TRIGGER_LABEL: Record<DreamRunSummary['trigger'], string> = {
  manual: 'manual',
  schedule: 'scheduled',
  'catch-up': 'catch-up',
  backfill: 'backfill',
};

export const OUTCOME_LABEL: Record<DreamCandidate['outcome'], string> = {
  promoted: 'promoted',
  proposed: 'proposed',
  'not-written': 'not written',
  'below-gates': 'below gates',
  ineligible: 'ineligible',
  duplicate: 'duplicate',
};

export const OUTCOME_TITLE: Record<DreamCandidate['outcome'], string> = {
  promoted: 'Passed every gate and was written.',
  proposed: 'Passed every gate; waiting for your review.',
  'not-written': 'Passed every gate, but the write was aborted.',
  'below-gates': 'Did not pass every gate.',
  ineligible: 'Never promoted: its provenance (untrusted or system text, or a session no person was in) rules it out.',
  duplicate: 'Folded into a near-identical candidate, or a restatement of an entry already in memory (its source list grows).',
};

export const GATE_LABEL: Record<DreamGateName, string> = {
  provenance: 'provenance',
  imported: 'import review',
  'already-in-memory': 'new',
  statement: 'statement',
  kind: 'kind',
  length: 'length',
  score: 'score',
  'recall-count': 'recalls',
  'unique-queries': 'queries',
  'max-promotions': 'room',
  'near-duplicate': 'unique',
  judgment: 'judgment',
  review: 'review',
};

export const DECISION_LABEL: Record<DreamPromotion['decision'], string> = {
  auto: 'written',
  proposed: 'waiting for review',
  approved: 'approved',
  rejected: 'rejected',
};

export const DECISION_TONE: Record<DreamPromotion['decision'], BadgeTone> = {
  auto: 'info',
  proposed: 'warn',
  approved: 'ok',
  rejected: 'error',
};

export const WRITE_TONE: Record<DreamFileWrite['outcome'], BadgeTone> = {
  written: 'ok',
  // The run stopped (crash or kill) with this write about to land; rollback can still undo it.
  writing: 'warn',
  aborted: 'error',
  unchanged: 'neutral',
  // Drawn in dreaming's own colour (badge-dreams).
  'dry-run': 'neutral',
};

const PHASE_LABEL: Record<DreamProgress['phase'], string> = {
  light: 'Light sleep: gathering recalled entries',
  rem: 'REM: finding themes',
  deep: 'Deep sleep: ranking and gating',
  consolidate: 'Consolidating',
  write: 'Writing',
};

export function progressText(progress: DreamProgress): string {
  const label = PHASE_LABEL[progress.phase];
  return progress.total > 0 ? `${label} ${progress.done} of ${progress.total}` : `${label}…`;
}

/** Candidates by score, highest first (the order the chart and the table use). */
export function byScore(candidates: readonly DreamCandidate[]): DreamCandidate[] {
  return [...candidates].sort((a, b) => b.score - a.score || a.key.localeCompare(b.key));
}

/**
 * Diary entries newest first: dated entries by date, undated ones after them; ties (same day,
 * or no date) keep the file's order reversed, since the diary is appended to.
 */
export function diaryNewestFirst(entries: readonly DiaryEntry[]): DiaryEntry[] {
  return entries
    .map((entry, index) => {
      const time = entry.date === null ? Number.NaN : Date.parse(entry.date);
      return { entry, index, time: Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time };
    })
    .sort((a, b) => (a.time !== b.time ? (a.time < b.time ? 1 : -1) : b.index - a.index))
    .map(({ entry }) => entry);
}

/** `0.82` for scores and signals in 0…1; two decimals are enough to compare with the gate. */
export function formatUnit(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return value.toFixed(2);
}

/**
 * A value checked against a gate, with as many decimals as it takes for the comparison to show:
 * 0.747 against 0.75 reads "0.747", never "0.75", so a failed gate never looks passed.
 */
export function formatAgainstGate(value: number, gate: number): string {
  if (!Number.isFinite(value) || !Number.isFinite(gate)) return String(value);
  for (let digits = 2; digits < 6; digits++) {
    const shown = Number(value.toFixed(digits));
    const shownGate = Number(gate.toFixed(digits));
    if (value >= gate === shown >= shownGate) return value.toFixed(digits);
  }
  return value.toFixed(6);
}

export interface ChartBar {
  key: string;
  x: number;
  y: number;
  width: number;
  height: number;
  outcome: DreamCandidate['outcome'];
  score: number;
  label: string;
}

export interface ChartGeometry {
  width: number;
  height: number;
  bars: ChartBar[];
  /** y of the gate line. */
  thresholdY: number;
  /** The score at the top of the chart. */
  max: number;
}

export const CHART_MAX_BARS = 30;

/** Bars for the top candidates and the gate line, in a `width × height` viewBox (y grows downwards). */
export function chartGeometry(candidates: readonly DreamCandidate[], minScore: number, width = 600, height = 160): ChartGeometry {
  const top = byScore(candidates).slice(0, CHART_MAX_BARS);
  const max = Math.max(1, minScore, ...top.map((c) => (Number.isFinite(c.score) ? c.score : 0)));
  const slot = width / Math.max(top.length, 1);
  const gap = Math.min(4, slot * 0.2);
  const scaleY = (value: number): number => height - (Math.max(0, Math.min(value, max)) / max) * height;
  const bars = top.map((candidate, i) => {
    const y = scaleY(Number.isFinite(candidate.score) ? candidate.score : 0);
    return {
      key: candidate.key,
      x: i * slot + gap / 2,
      y,
      width: Math.max(slot - gap, 1),
      // A zero score still shows a sliver, so every candidate has a bar to hover.
      height: Math.max(height - y, 1),
      outcome: candidate.outcome,
      score: candidate.score,
      label: `${formatUnit(candidate.score)} · ${OUTCOME_LABEL[candidate.outcome]} · ${candidate.text}`,
    };
  });
  return { width, height, bars, thresholdY: scaleY(minScore), max };
}

const RUN_ID = /\bdream:(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z-[0-9a-f]+/g;

/** When a run started, read from its id (`dream:20261130T030000Z-a1b2c3`); null for an id of another shape. */
export function runStartFromId(id: string): string | null {
  const match = new RegExp(RUN_ID.source).exec(id);
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match;
  return `${y}-${mo}-${d}T${h}:${mi}:${s}Z`;
}

/** "the run of 30 Nov, 03:00" for a run id, so no id is shown to a person. */
export function describeRun(id: string): string {
  const started = runStartFromId(id);
  return started ? `the run of ${formatTime(started)}` : 'a dream run';
}

/** Engine text that names runs by id ("dream run dream:2026…"), with each run named by its time instead. */
export function withRunsNamed(text: string): string {
  const named = new RegExp(`\\b(?:dream run|backfill) (${RUN_ID.source})`, 'g');
  return text.replace(named, (_, id: string) => describeRun(id)).replace(RUN_ID, (id) => describeRun(id));
}
