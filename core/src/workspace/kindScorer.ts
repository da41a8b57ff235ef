/**
 * A statistical second opinion on a line's kind: multinomial logistic regression over the words,
 * word pairs and shape of the line (kindFeatures.ts), trained by scripts/bench/kinds/trainScorer.ts
 * on the tune halves of the kind benchmark only. The hand rules (entryKind.ts) still decide; the
 * scorer only overrules them where the training script measured that it helps (see
 * `combineWithRules`). Its weights are parsed on the first line scored, never at process start.
 */
import type { EntryKind } from './entryKind.js';
import { kindFeatures, looksEnglish } from './kindFeatures.js';
import { KIND_SCORER_MODEL_JSON } from './kindScorerModel.js';

export interface KindScorerModel {
  classes: EntryKind[];
  bias: number[];
  /** Per feature, one weight per class (in `classes` order). */
  weights: Record<string, number[]>;
  /** Rules say durable, the scorer puts at least this much on task, question, event and time-bounded together: take the scorer's. */
  vetoAt: number;
  /** Rules found no cue at all (the `fact` fallback), the scorer is at least this sure it is a task or a question: take the scorer's. */
  fallbackAt: number;
  /** The scorer speaks only about lines with at least this many features it was trained on. */
  minKnownFeatures: number;
}

export interface KindScore {
  /** Probability per kind. */
  probabilities: Map<EntryKind, number>;
  best: EntryKind;
}

/** Kinds dreaming may promote: a veto moves a line out of them. */
export const DURABLE_KINDS: ReadonlySet<EntryKind> = new Set(['fact', 'preference', 'decision', 'procedure']);

/**
 * Where no rule had a cue, the scorer may name only work or a question: the kinds whose wording
 * varies most and that must never be promoted; a guess of "event" for a plain statement ("Based in
 * Lisbon…") would lose a fact for no gain.
 */
const FALLBACK_KINDS: ReadonlySet<EntryKind> = new Set(['task', 'question']);

let committed: KindScorerModel | null = null;

function committedModel(): KindScorerModel {
  committed ??= JSON.parse(KIND_SCORER_MODEL_JSON) as KindScorerModel;
  return committed;
}

/** The scorer's reading of a line, or null when the line is not one it can read (another language, too few known words). */
export function scoreKind(raw: string, model: KindScorerModel = committedModel()): KindScore | null {
  if (!looksEnglish(raw)) return null;
  const logits = [...model.bias];
  let known = 0;
  for (const feature of kindFeatures(raw)) {
    const w = model.weights[feature];
    if (!w) continue;
    if (!feature.startsWith('s:')) known++;
    for (let k = 0; k < logits.length; k++) logits[k]! += w[k]!;
  }
  if (known < model.minKnownFeatures) return null;
  const top = Math.max(...logits);
  const exps = logits.map((v) => Math.exp(v - top));
  const sum = exps.reduce((a, b) => a + b, 0);
  const probabilities = new Map(model.classes.map((kind, k) => [kind, exps[k]! / sum] as const));
  let best = model.classes[0]!;
  for (const kind of model.classes) if (probabilities.get(kind)! > probabilities.get(best)!) best = kind;
  return { probabilities, best };
}

/**
 * The scorer's kind where it overrules the rules, or null where the rules stand: a durable verdict
 * the scorer reads as work, a question, a happening or a time-bounded state (a promotion it vetoes),
 * or a line no rule had a cue for.
 */
export function combineWithRules(rulesKind: EntryKind, rulesFellBack: boolean, score: KindScore | null, model: KindScorerModel = committedModel()): EntryKind | null {
  if (!score) return null;
  if (DURABLE_KINDS.has(rulesKind)) {
    let never = 0;
    let bestNever: EntryKind | null = null;
    for (const [kind, p] of score.probabilities) {
      if (DURABLE_KINDS.has(kind)) continue;
      never += p;
      if (!bestNever || p > score.probabilities.get(bestNever)!) bestNever = kind;
    }
    if (never >= model.vetoAt) return bestNever;
  }
  if (rulesFellBack && FALLBACK_KINDS.has(score.best) && score.probabilities.get(score.best)! >= model.fallbackAt) return score.best;
  return null;
}

/**
 * The scorer's kind where it overrules the rules' verdict on a line, or null. Scores the line only
 * when the committed model could overrule that verdict (most lines have a rule cue and are left alone).
 */
export function overruleByScorer(raw: string, rulesKind: EntryKind, rulesFellBack: boolean): EntryKind | null {
  const model = committedModel();
  const vetoPossible = DURABLE_KINDS.has(rulesKind) && model.vetoAt <= 1;
  const fallbackPossible = rulesFellBack && model.fallbackAt <= 1;
  if (!vetoPossible && !fallbackPossible) return null;
  return combineWithRules(rulesKind, rulesFellBack, scoreKind(raw, model), model);
}
