/**
 * Shapes shared by dreaming's parts (phases, curated-file writers, model consolidation,
 * diary). The contract's records (runs, candidates) live in `api/dreamSchemas.ts`.
 */

/** One gated candidate on its way into a curated file. */
export interface PromotionToWrite {
  /** `path:startLine:endLine` */
  candidateKey: string;
  path: string;
  startLine: number;
  endLine: number;
  /** The entry's words (no bullet marker, no annotations). */
  text: string;
  /** Annotations to carry over verbatim, e.g. `<!-- trigger: staging, port -->`. */
  annotations: string[];
  score: number;
  recallCount: number;
  meanScore: number;
  /** Recall signals plus written-days the score was built from. */
  signalCount: number;
  /** Groups entries about the same thing across runs (supersession follows it). */
  lineageKey: string;
  /** The day the person wrote it down (the daily note's day), for USER.md's `observed`; null when unknown. */
  observedDay?: string | null;
}

/** What a writer did to a file's text, exactly: rollback removes `added` and reverts `changed`. */
export interface TextEdit {
  text: string;
  added: string[];
  changed: Array<{ before: string; after: string }>;
}

/** A line-level change set that can be undone on a file that has been edited since. */
export interface RunChanges {
  added: readonly string[];
  changed: ReadonlyArray<{ before: string; after: string }>;
}

export type ConsolidationAction = 'added' | 'merged' | 'superseded';

export interface ConsolidationOperation {
  candidateKey: string;
  action: ConsolidationAction;
  resultEntry: string;
  priorEntries: string[];
}
