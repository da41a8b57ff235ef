/**
 * `npm run bench -- --only curation`: every fold simulated and scored, the figures per fold and
 * overall as a stderr table, the headline figures (overall) for the bench's JSON line.
 */
import { log, round, table } from '../stats.js';
import { foldNames, labelProblems, loadFold } from './folds.js';
import { runCurationScale, type ScaleFigures } from './scale.js';
import { scoreFold, type CurationCounts, type FoldScore } from './score.js';
import { simulateFold } from './simulate.js';

export interface CurationFigures extends ScaleFigures {
  curation_precision: number | null;
  curation_recall: number | null;
  /** Recall among the durable facts the simulated use asked about with 3 different queries on 2 days. */
  curation_recall_asked: number | null;
  curation_tasks_questions_expired_promoted: number;
  curation_duplicate_lines: number;
  curation_supersessions_inverted: number;
  curation_contradictions_queued: number;
  curation_signal_text_lines: number;
  curation_sweep_s_max: number;
  curation: {
    folds: Record<string, CurationCounts & { precision: number | null; recall: number | null; searches: number; opened: number; mistakes: string[] }>;
    overall: CurationCounts & { precision: number | null; recall: number | null };
  };
}

const ratio = (n: number, d: number): number | null => (d === 0 ? null : round(n / d, 3));
const pct = (v: number | null): string => (v === null ? '–' : `${(v * 100).toFixed(1)} %`);

function sumCounts(scores: CurationCounts[]): CurationCounts {
  const total = { ...scores[0]! };
  for (const key of Object.keys(total) as Array<keyof CurationCounts>) {
    // A fold's score also carries its mistakes: summing them would print the blind fold's wrong lines in the overall record.
    if (typeof total[key] !== 'number') {
      delete total[key];
      continue;
    }
    total[key] = key === 'sweep_s_max' ? Math.max(...scores.map((s) => s[key])) : scores.reduce((n, s) => n + s[key], 0);
  }
  return total;
}

function row(name: string, s: CurationCounts): string[] {
  return [
    name,
    `${s.lines_correct}/${s.lines_written}`,
    pct(ratio(s.lines_correct, s.lines_written)),
    `${s.recall_hits}/${s.recall_targets}`,
    pct(ratio(s.recall_hits, s.recall_targets)),
    `${s.recall_hits_asked}/${s.recall_targets_asked}`,
    String(s.tasks_promoted + s.questions_promoted + s.expired_promoted),
    String(s.trivia_promoted + s.events_promoted + s.managed_promoted),
    String(s.lines_wrong_file),
    String(s.duplicate_lines),
    `${s.supersessions_inverted}/${s.supersessions_both_active}/${s.supersessions_applied} of ${s.supersessions}`,
    `${s.contradictions_queued}/${s.contradictions_both_active}/${s.contradictions_one_kept} of ${s.contradictions}`,
    String(s.signal_text_lines),
    s.sweep_s_max.toFixed(2),
  ];
}

/**
 * Folds whose mistakes are never printed: the blind test sets (README: written without reading the product). Seeing their
 * wrong lines would let the next change fit them, so only their counts leave the benchmark.
 */
const BLIND_FOLDS = new Set(['sre', 'vet']);

/**
 * Every fold, or only those named in REVERIE_CURATION_FOLDS (comma-separated): while a change is
 * being made, the blind fold can be left out so its figure is not seen until the one final run.
 */
function foldsToRun(): string[] {
  const all = foldNames();
  const named = process.env.REVERIE_CURATION_FOLDS?.split(',').map((n) => n.trim()).filter(Boolean);
  if (!named) return all;
  const unknown = named.filter((n) => !all.includes(n));
  if (unknown.length > 0) throw new Error(`REVERIE_CURATION_FOLDS names ${unknown.join(', ')}, not a fold (folds: ${all.join(', ')})`);
  return all.filter((n) => named.includes(n));
}

export async function runCurationBench(quick: boolean): Promise<CurationFigures> {
  const folds: CurationFigures['curation']['folds'] = {};
  const scores: FoldScore[] = [];
  for (const name of foldsToRun()) {
    const fold = loadFold(name);
    const problems = labelProblems(fold);
    if (problems.length > 0) throw new Error(`curation fold ${name} has inconsistent labels:\n  ${problems.join('\n  ')}`);
    log(`Curation: ${name} (${fold.persona}), ${fold.labels.length} labelled entries …`);
    const sim = await simulateFold(fold);
    const score = scoreFold(fold, sim);
    scores.push(score);
    const blind = BLIND_FOLDS.has(name);
    const mistakes = blind ? [] : score.mistakes;
    folds[name] = { ...score, mistakes, sweep_s_total: round(score.sweep_s_total, 3), sweep_s_max: round(score.sweep_s_max, 3), precision: ratio(score.lines_correct, score.lines_written), recall: ratio(score.recall_hits, score.recall_targets), searches: sim.searches, opened: sim.opened };
    log(`  ${sim.searches} searches (${sim.opened} results opened), ${sim.runs.length} sweeps: ${score.lines_written} lines written`);
    if (blind) log(`    (${score.mistakes.length} mistakes withheld: ${name} is a blind fold)`);
    for (const mistake of mistakes) log(`    ✗ ${mistake}`);
  }
  const overall = sumCounts(scores);
  log(
    table(
      ['fold', 'correct/written', 'precision', 'hits/durable', 'recall', 'hits/asked 3q2d', 'task+q+expired', 'trivia+event+managed', 'wrong file', 'dup lines', 'supersessions inv/both/ok', 'contradictions queued/both/one', 'score text', 'sweep max s'],
      [...Object.entries(folds).map(([name, s]) => row(name, s)), row('overall', overall)],
    ),
  );
  const scale = await runCurationScale(quick ? 2_000 : 10_000);
  log(`  curation ${scale.curation_10k_entries}-entry sweep: ${scale.curation_10k_sweep_s.toFixed(2)} s wall, ${scale.curation_10k_sweep_cpu_s.toFixed(2)} s CPU (${scale.curation_10k_promoted} promoted)`);
  return {
    curation_precision: ratio(overall.lines_correct, overall.lines_written),
    curation_recall: ratio(overall.recall_hits, overall.recall_targets),
    curation_recall_asked: ratio(overall.recall_hits_asked, overall.recall_targets_asked),
    curation_tasks_questions_expired_promoted: overall.tasks_promoted + overall.questions_promoted + overall.expired_promoted,
    curation_duplicate_lines: overall.duplicate_lines,
    curation_supersessions_inverted: overall.supersessions_inverted,
    curation_contradictions_queued: overall.contradictions_queued,
    curation_signal_text_lines: overall.signal_text_lines,
    curation_sweep_s_max: round(overall.sweep_s_max, 3),
    ...scale,
    curation_10k_sweep_s: round(scale.curation_10k_sweep_s, 3),
    curation_10k_sweep_cpu_s: round(scale.curation_10k_sweep_cpu_s, 3),
    curation: { folds, overall: { ...overall, sweep_s_total: round(overall.sweep_s_total, 3), sweep_s_max: round(overall.sweep_s_max, 3), precision: ratio(overall.lines_correct, overall.lines_written), recall: ratio(overall.recall_hits, overall.recall_targets) } },
  };
}
