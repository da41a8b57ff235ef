/**
 * Trains the statistical kind scorer (core/src/workspace/kindScorer.ts) on the TUNE halves of the
 * kind benchmark's rounds (English lines only; the held-out halves are never read here) and the
 * never-promoted lines of the curation tuning folds (backend, datasci), and
 * writes core/src/workspace/kindScorerModel.ts. Deterministic: the same lines give the same file.
 *
 *   npx tsx scripts/bench/kinds/trainScorer.ts          (writes the model)
 *   npx tsx scripts/bench/kinds/trainScorer.ts --check  (fails if the committed model is not what training gives)
 *
 * The regularisation and the two thresholds that let the scorer overrule the rules are chosen by
 * 5-fold cross-validation inside the tune halves, so no threshold is set on lines the model saw.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { classifyByRules, type EntryKind } from '../../../core/src/workspace/entryKind.js';
import { kindFeatures } from '../../../core/src/workspace/kindFeatures.js';
import { combineWithRules, DURABLE_KINDS, scoreKind, type KindScorerModel } from '../../../core/src/workspace/kindScorer.js';
import { loadFold } from '../curation/folds.js';
import { LABELLED_KINDS, loadKindLines, type KindLine } from './lines.js';

const MODEL_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../core/src/workspace/kindScorerModel.ts');
/** A feature must occur in this many training lines to get a weight: one-off words are noise. */
const MIN_FEATURE_LINES = 2;
const MIN_KNOWN_FEATURES = 2;
const ITERATIONS = 400;
const LEARNING_RATE = 2;
const L2_CHOICES = [0.001, 0.003, 0.01];
const THRESHOLDS = [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 2];
const FOLDS = 5;

export interface TrainingLine {
  text: string;
  kind: EntryKind;
  noteDay: string;
}

/**
 * The curation folds used for tuning (scripts/bench/curation/README.md); the held-out and blind
 * folds are never read here.
 */
const CURATION_TUNING_FOLDS = ['backend', 'datasci'];
/**
 * A curation label as a kind, where the label says it: why a line is never promoted (trivia is a
 * fact not worth keeping). A promoted line's kind (fact, decision, procedure…) is not labelled, so
 * promoted lines are left out rather than guessed.
 */
const KIND_OF_VERDICT: Record<string, EntryKind> = { task: 'task', question: 'question', event: 'event', expired: 'time-bounded', trivia: 'fact' };

/** The tune halves' English lines, then the never-promoted daily-note lines of the curation tuning folds: what the scorer may learn from. */
export function trainingLines(lines: readonly KindLine[] = loadKindLines()): TrainingLine[] {
  const kindLines = lines.filter((l) => l.half === 'tune' && !l.lang).map((l) => ({ text: l.text, kind: l.kind, noteDay: l.noteDay }));
  return [...kindLines, ...CURATION_TUNING_FOLDS.flatMap(curationLines)];
}

function curationLines(name: string): TrainingLine[] {
  const fold = loadFold(name);
  const out: TrainingLine[] = [];
  for (const label of fold.labels) {
    const day = /memory\/(\d{4}-\d{2}-\d{2})\.md$/.exec(label.file)?.[1];
    const kind = label.verdict === 'never' ? KIND_OF_VERDICT[label.why ?? ''] : undefined;
    if (!day || !kind) continue;
    const line = fold.files.get(label.file)?.split(/\r?\n/).find((l) => l.includes(label.match));
    if (!line) throw new Error(`curation fold ${name}: label ${label.id} matches no line of ${label.file}`);
    out.push({ text: line.trim(), kind, noteDay: day });
  }
  return out;
}

/** Multinomial logistic regression by full-batch gradient descent (fixed order, fixed steps: deterministic). */
export function fitWeights(lines: readonly TrainingLine[], l2: number): Pick<KindScorerModel, 'classes' | 'bias' | 'weights'> {
  const classes = [...LABELLED_KINDS];
  const featuresOf = lines.map((l) => kindFeatures(l.text));
  const lineCount = new Map<string, number>();
  for (const fs of featuresOf) for (const f of fs) lineCount.set(f, (lineCount.get(f) ?? 0) + 1);
  const vocab = [...lineCount].filter(([, n]) => n >= MIN_FEATURE_LINES).map(([f]) => f).sort();
  const index = new Map(vocab.map((f, i) => [f, i]));
  const rows = featuresOf.map((fs) => fs.map((f) => index.get(f)).filter((i): i is number => i !== undefined));
  const targets = lines.map((l) => classes.indexOf(l.kind));
  const K = classes.length;
  const W = new Float64Array(vocab.length * K);
  const bias = new Float64Array(K);
  const gradW = new Float64Array(vocab.length * K);
  const gradB = new Float64Array(K);
  const p = new Float64Array(K);
  for (let step = 0; step < ITERATIONS; step++) {
    gradW.fill(0);
    gradB.fill(0);
    rows.forEach((row, n) => {
      for (let k = 0; k < K; k++) p[k] = bias[k]!;
      for (const i of row) for (let k = 0; k < K; k++) p[k]! += W[i * K + k]!;
      let top = -Infinity;
      for (let k = 0; k < K; k++) top = Math.max(top, p[k]!);
      let sum = 0;
      for (let k = 0; k < K; k++) sum += (p[k] = Math.exp(p[k]! - top));
      for (let k = 0; k < K; k++) {
        const g = p[k]! / sum - (k === targets[n] ? 1 : 0);
        gradB[k]! += g;
        for (const i of row) gradW[i * K + k]! += g;
      }
    });
    const scale = LEARNING_RATE / rows.length;
    for (let k = 0; k < K; k++) bias[k]! -= scale * gradB[k]!;
    for (let j = 0; j < W.length; j++) W[j]! -= scale * gradW[j]! + LEARNING_RATE * l2 * W[j]!;
  }
  const round3 = (v: number): number => Math.round(v * 1000) / 1000;
  const weights: Record<string, number[]> = {};
  vocab.forEach((f, i) => {
    const w = Array.from(W.subarray(i * K, i * K + K), round3);
    if (w.some((v) => Math.abs(v) >= 0.01)) weights[f] = w;
  });
  return { classes, bias: Array.from(bias, round3), weights };
}

function foldOf(text: string): number {
  return createHash('sha256').update(text, 'utf8').digest()[1]! % FOLDS;
}

interface Tally { correct: number; leaks: number; lost: number; lines: number }

function tally(lines: readonly TrainingLine[], kinds: readonly EntryKind[]): Tally {
  const t: Tally = { correct: 0, leaks: 0, lost: 0, lines: lines.length };
  lines.forEach((l, i) => {
    const kind = kinds[i]!;
    if (kind === l.kind) t.correct++;
    if (!DURABLE_KINDS.has(l.kind) && DURABLE_KINDS.has(kind)) t.leaks++;
    if (DURABLE_KINDS.has(l.kind) && !DURABLE_KINDS.has(kind)) t.lost++;
  });
  return t;
}

/**
 * Right lines, less one more for each line on the wrong side of promotion: a leak (a task or
 * question that could reach MEMORY.md) and a lost fact (one that never can) both count twice.
 */
const objective = (t: Tally): number => t.correct - t.leaks - t.lost;

export interface TrainedScorer {
  model: KindScorerModel;
  /** Cross-validated figures inside the tune halves: the rules alone, and rules with the scorer. */
  crossValidated: { rules: Tally; combined: Tally; l2: number };
}

export function trainKindScorer(lines: readonly TrainingLine[] = trainingLines()): TrainedScorer {
  const rules = lines.map((l) => classifyByRules(l.text, l.noteDay));
  let best: { l2: number; vetoAt: number; fallbackAt: number; tally: Tally } | null = null;
  for (const l2 of L2_CHOICES) {
    // Out-of-fold scores: each line scored by a model that never saw it.
    const scores = new Array<ReturnType<typeof scoreKind>>(lines.length);
    for (let fold = 0; fold < FOLDS; fold++) {
      const model: KindScorerModel = { ...fitWeights(lines.filter((l) => foldOf(l.text) !== fold), l2), vetoAt: 2, fallbackAt: 2, minKnownFeatures: MIN_KNOWN_FEATURES };
      lines.forEach((l, i) => {
        if (foldOf(l.text) === fold) scores[i] = scoreKind(l.text, model);
      });
    }
    for (const vetoAt of THRESHOLDS) {
      for (const fallbackAt of THRESHOLDS) {
        const probe = { vetoAt, fallbackAt } as KindScorerModel;
        const kinds = lines.map((_l, i) => combineWithRules(rules[i]!.kind, rules[i]!.cue === 'no other kind matched', scores[i]!, probe) ?? rules[i]!.kind);
        const t = tally(lines, kinds);
        if (process.env.KIND_SCORER_GRID) console.log(l2, vetoAt, fallbackAt, objective(t), t.correct, t.leaks, t.lost);
        // Ties go to the higher thresholds (the scorer overrules less) and the stronger regularisation.
        if (!best || objective(t) >= objective(best.tally)) best = { l2, vetoAt, fallbackAt, tally: t };
      }
    }
  }
  const chosen = best!;
  const model: KindScorerModel = { ...fitWeights(lines, chosen.l2), vetoAt: chosen.vetoAt, fallbackAt: chosen.fallbackAt, minKnownFeatures: MIN_KNOWN_FEATURES };
  return { model, crossValidated: { rules: tally(lines, rules.map((r) => r.kind)), combined: chosen.tally, l2: chosen.l2 } };
}

export function modelSource(model: KindScorerModel): string {
  return [
    '// Generated by scripts/bench/kinds/trainScorer.ts from the kind benchmark\'s tune halves: do not edit by hand.',
    '// A string, parsed on the first line scored (kindScorer.ts), so loading this module costs next to nothing.',
    `export const KIND_SCORER_MODEL_JSON = ${JSON.stringify(JSON.stringify(model))};`,
    '',
  ].join('\n');
}

function main(): void {
  const lines = trainingLines();
  const trained = trainKindScorer(lines);
  const source = modelSource(trained.model);
  const cv = trained.crossValidated;
  const show = (t: Tally): string => `${t.correct}/${t.lines} right, ${t.leaks} never-kind lines read as durable, ${t.lost} durable read as never-kind`;
  console.log(`kind scorer: ${lines.length} tune lines, ${Object.keys(trained.model.weights).length} features, l2=${cv.l2}, vetoAt=${trained.model.vetoAt}, fallbackAt=${trained.model.fallbackAt}`);
  console.log(`  5-fold inside the tune halves: rules ${show(cv.rules)}; rules + scorer ${show(cv.combined)}`);
  if (process.argv.includes('--check')) {
    if (fs.readFileSync(MODEL_FILE, 'utf8') !== source) throw new Error(`${MODEL_FILE} is not what training gives now: run npx tsx scripts/bench/kinds/trainScorer.ts`);
    console.log('  the committed model is what training gives');
    return;
  }
  fs.writeFileSync(MODEL_FILE, source);
  console.log(`  wrote ${path.relative(process.cwd(), MODEL_FILE)} (${source.length} bytes)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) main();
