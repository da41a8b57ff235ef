import type { DreamPromotion, DreamRun } from '../../contract/index.js';

export interface Supersession {
  target: DreamPromotion['target'];
  /** The entry that now holds. */
  text: string;
  /** The entries it replaced, as they read. */
  replaced: string[];
}

/**
 * The supersessions a run wrote, for the diary. The one place they are read from the run
 * record: today promotions whose action is `superseded`; a typed field for supersessions (and
 * contradictions) on the run record is read here when it lands.
 */
export function supersessionsOf(run: Pick<DreamRun, 'promoted' | 'candidates'>, written: readonly DreamPromotion[]): Supersession[] {
  return written
    .filter((p) => p.action === 'superseded')
    .map((p) => ({ target: p.target, text: run.candidates.find((c) => c.key === p.candidateKey)?.text ?? p.candidateKey, replaced: p.priorEntries }));
}
