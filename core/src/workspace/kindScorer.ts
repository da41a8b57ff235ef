/**
 * A statistical second opinion on a line's kind: multinomial logistic regression over the words,
 * word pairs and shape of the line (kindFeatures.ts), trained by scripts/bench/kinds/trainScorer.ts
 * on the tune halves of the kind benchmark only. The hand rules (entryKind.ts) still decide; the
 * scorer only overrules them where the training script measured that it helps (see
 * `combineWithRules`). Its weights are parsed on the first line scored, never at process start.
 */
import type { EntryKind } from './entryKind.js';
import { looksEnglish, visitKindFeatures, type KindFeatureVisitor } from './kindFeatures.js';
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

/**
 * A model's weights by feature family, so a line is scored without building its features' strings
 * (a string per word and word pair, each looked up in an object of thousands of keys, was most of
 * the scorer's cost). Word pairs are keyed by their first word, then their second (tokens hold no
 * space, so `b:a b` splits at its one space). `seen` marks a feature already counted on the line
 * being scored: features are binary, each counts once.
 */
interface Feature {
  weights: readonly number[];
  seen: number;
}

interface CompiledModel {
  words: Map<string, Feature>;
  pairs: Map<string, Map<string, Feature>>;
  firsts: Map<string, Feature>;
  firstPairs: Map<string, Map<string, Feature>>;
  lasts: Map<string, Feature>;
  shapes: Map<string, Feature>;
}

const compiledModels = new WeakMap<KindScorerModel, CompiledModel>();

function compiled(model: KindScorerModel): CompiledModel {
  let out = compiledModels.get(model);
  if (out) return out;
  out = { words: new Map(), pairs: new Map(), firsts: new Map(), firstPairs: new Map(), lasts: new Map(), shapes: new Map() };
  const addPair = (into: Map<string, Map<string, Feature>>, pair: string, feature: Feature): void => {
    const space = pair.indexOf(' ');
    if (space < 0) return; // not a pair kindFeatures can produce
    const first = pair.slice(0, space);
    let seconds = into.get(first);
    if (!seconds) into.set(first, (seconds = new Map()));
    seconds.set(pair.slice(space + 1), feature);
  };
  for (const [name, weights] of Object.entries(model.weights)) {
    const feature: Feature = { weights, seen: 0 };
    const colon = name.indexOf(':');
    const family = name.slice(0, colon + 1);
    const value = name.slice(colon + 1);
    if (family === 'w:') out.words.set(value, feature);
    else if (family === 'b:') addPair(out.pairs, value, feature);
    else if (family === 'f:') out.firsts.set(value, feature);
    else if (family === 'f2:') addPair(out.firstPairs, value, feature);
    else if (family === 'l:') out.lasts.set(value, feature);
    else if (family === 's:') out.shapes.set(name, feature);
  }
  compiledModels.set(model, out);
  return out;
}

/** Lines scored so far: the mark a feature gets when counted on the current line. */
let lineMark = 0;

/**
 * Adds each known feature's weights to the logits once, in kindFeatures' order (the same sums,
 * added in the same order, as summing over kindFeatures' list); counts the known features that
 * are not shape features.
 */
class LogitSummer implements KindFeatureVisitor {
  known = 0;
  constructor(
    private readonly model: CompiledModel,
    private readonly logits: number[],
    private readonly mark: number,
  ) {}

  private add(feature: Feature | undefined, counts: boolean): void {
    if (!feature || feature.seen === this.mark) return;
    feature.seen = this.mark;
    if (counts) this.known++;
    const w = feature.weights;
    for (let k = 0; k < this.logits.length; k++) this.logits[k]! += w[k]!;
  }

  word(token: string): void {
    this.add(this.model.words.get(token), true);
  }
  pair(token: string, next: string): void {
    this.add(this.model.pairs.get(token)?.get(next), true);
  }
  first(token: string): void {
    this.add(this.model.firsts.get(token), true);
  }
  firstPair(token: string, next: string): void {
    this.add(this.model.firstPairs.get(token)?.get(next), true);
  }
  last(token: string): void {
    this.add(this.model.lasts.get(token), true);
  }
  shape(feature: string): void {
    this.add(this.model.shapes.get(feature), false);
  }
}

/** The scorer's reading of a line, or null when the line is not one it can read (another language, too few known words). */
export function scoreKind(raw: string, model: KindScorerModel = committedModel()): KindScore | null {
  if (!looksEnglish(raw)) return null;
  const logits = [...model.bias];
  const summer = new LogitSummer(compiled(model), logits, ++lineMark);
  visitKindFeatures(raw, summer);
  if (summer.known < model.minKnownFeatures) return null;
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
