/**
 * `npm run bench -- --only kinds`: the entry-kind classifier (workspace/entryKind.ts) on invented,
 * labelled lines (lines.txt), per kind and per half. Only the tune half's mistakes are printed:
 * the held-out half is for reporting, not for fitting rules.
 */
import { classifyEntry, type EntryKind } from '../../../core/src/workspace/entryKind.js';
import { log, round, table } from '../stats.js';
import { LABELLED_KINDS, loadKindLines, type KindHalf, type KindLine } from './lines.js';

/** Kinds dreaming may promote; the rest (task, question, event) never are, time-bounded only with its end. */
const DURABLE: ReadonlySet<EntryKind> = new Set(['fact', 'preference', 'decision', 'procedure']);

export interface KindCounts {
  lines: number;
  correct: number;
  /** Per kind: lines labelled it, lines classified as it, lines both. */
  per_kind: Record<string, { labelled: number; predicted: number; correct: number; precision: number | null; recall: number | null }>;
  /** Task, question, event or time-bounded lines classified as a durable kind: what dreaming could wrongly promote. */
  leaks: number;
  /** Durable lines classified as task, question, event or time-bounded: what dreaming would never promote. */
  lost: number;
  /** Time-bounded lines with a labelled end: classified time-bounded with exactly that end. */
  validity_correct: number;
  validity_labelled: number;
  /** Lines in other languages: the right kind, the `fact` fallback, another kind. */
  abroad: { lines: number; correct: number; fact_fallback: number; other_kind: number };
  /** Lines whose classification threw. */
  crashes: number;
}

export interface KindFigures {
  kinds_tune_accuracy: number | null;
  kinds_held_out_accuracy: number | null;
  kinds_held_out_leaks: number;
  /** CPU time to classify one labelled line (mean over 20 passes), and one 64 KB line of repeated cue words (a guard against quadratic patterns). */
  kinds_cpu_us_per_line: number;
  kinds_long_line_cpu_ms: number;
  /** Per round of lines (lines.txt, round2.txt, …) and half, and over all rounds. */
  kinds: Record<string, { tune: KindCounts; held_out: KindCounts }>;
}

const ratio = (n: number, d: number): number | null => (d === 0 ? null : round(n / d, 3));
const pct = (v: number | null): string => (v === null ? '–' : `${(v * 100).toFixed(1)} %`);

function countHalf(lines: readonly KindLine[], half: KindHalf, mistakes: string[] | null): KindCounts {
  const where = (line: KindLine): string => `${line.file}:${line.lineNo}`;
  const counts: KindCounts = {
    lines: 0, correct: 0, per_kind: {}, leaks: 0, lost: 0, validity_correct: 0, validity_labelled: 0,
    abroad: { lines: 0, correct: 0, fact_fallback: 0, other_kind: 0 }, crashes: 0,
  };
  const perKind = new Map(LABELLED_KINDS.map((k) => [k, { labelled: 0, predicted: 0, correct: 0 }]));
  for (const line of lines) {
    if (line.half !== half) continue;
    let kind: EntryKind;
    let validUntil: string | null;
    let cue: string;
    try {
      ({ kind, validUntil, cue } = classifyEntry(line.text, line.noteDay));
    } catch (error) {
      counts.crashes++;
      mistakes?.push(`${where(line)}: threw ${error instanceof Error ? error.message : String(error)}: ${line.text}`);
      continue;
    }
    if (line.lang) {
      counts.abroad.lines++;
      if (kind === line.kind) counts.abroad.correct++;
      else if (kind === 'fact') counts.abroad.fact_fallback++;
      else {
        counts.abroad.other_kind++;
        mistakes?.push(`${where(line)} (${line.lang}): ${line.kind} read as ${kind} (${cue}): ${line.text}`);
      }
      continue;
    }
    counts.lines++;
    perKind.get(line.kind)!.labelled++;
    perKind.get(kind)!.predicted++;
    if (kind === line.kind) {
      counts.correct++;
      perKind.get(kind)!.correct++;
    } else {
      mistakes?.push(`${where(line)}: ${line.kind} read as ${kind} (${cue}): ${line.text}`);
    }
    if (!DURABLE.has(line.kind) && DURABLE.has(kind)) counts.leaks++;
    if (DURABLE.has(line.kind) && !DURABLE.has(kind)) counts.lost++;
    if (line.kind === 'time-bounded' && line.validUntil) {
      counts.validity_labelled++;
      if (kind === 'time-bounded' && validUntil === line.validUntil) counts.validity_correct++;
      else if (kind === 'time-bounded') mistakes?.push(`${where(line)}: ends ${line.validUntil}, read as ${validUntil ?? 'no end'}: ${line.text}`);
    }
  }
  for (const [kind, c] of perKind) counts.per_kind[kind] = { ...c, precision: ratio(c.correct, c.predicted), recall: ratio(c.correct, c.labelled) };
  return counts;
}

function printHalf(name: string, c: KindCounts): void {
  log(`  ${name}: ${c.correct}/${c.lines} right (${pct(ratio(c.correct, c.lines))}), ${c.leaks} never-kind lines read as durable, ${c.lost} durable lines read as a never-kind, ` +
    `end day ${c.validity_correct}/${c.validity_labelled}, other languages ${c.abroad.correct} right + ${c.abroad.fact_fallback} fact / ${c.abroad.lines} (${c.abroad.other_kind} another kind), ${c.crashes} threw`);
  log(table(
    ['kind', 'labelled', 'read as', 'precision', 'recall'],
    Object.entries(c.per_kind).map(([k, v]) => [k, String(v.labelled), String(v.predicted), pct(v.precision), pct(v.recall)]),
  ));
}

function countRound(name: string, lines: readonly KindLine[], printMistakes = true): { tune: KindCounts; held_out: KindCounts } {
  log(`Entry kinds, ${name}: ${lines.length} labelled lines`);
  const mistakes: string[] | null = printMistakes ? [] : null;
  const tune = countHalf(lines, 'tune', mistakes);
  const heldOut = countHalf(lines, 'held-out', null);
  printHalf('tune', tune);
  for (const m of mistakes ?? []) log(`    ✗ ${m}`);
  printHalf('held-out (mistakes not printed)', heldOut);
  return { tune, held_out: heldOut };
}

export function runKindsBench(): KindFigures {
  const lines = loadKindLines();
  const kinds: KindFigures['kinds'] = {};
  const rounds = [...new Set(lines.map((l) => l.file))];
  for (const round of rounds) kinds[round] = countRound(round, lines.filter((l) => l.file === round));
  const all = rounds.length > 1 ? countRound('all rounds (mistakes above)', lines, false) : kinds[rounds[0]!]!;
  kinds.all = all;
  const cpu = classificationCpu(lines);
  log(`  classifying: ${cpu.perLineUs} µs CPU a line; a 64 KB line ${cpu.longLineMs} ms CPU`);
  return {
    kinds_tune_accuracy: ratio(all.tune.correct, all.tune.lines),
    kinds_held_out_accuracy: ratio(all.held_out.correct, all.held_out.lines),
    kinds_held_out_leaks: all.held_out.leaks,
    kinds_cpu_us_per_line: cpu.perLineUs,
    kinds_long_line_cpu_ms: cpu.longLineMs,
    kinds,
  };
}

/** CPU, not wall time: the machine is shared. */
function classificationCpu(lines: readonly KindLine[]): { perLineUs: number; longLineMs: number } {
  const passes = 20;
  const start = process.cpuUsage();
  for (let pass = 0; pass < passes; pass++) for (const line of lines) classifyEntry(line.text, line.noteDay);
  const used = process.cpuUsage(start);
  const long = `- ${'the trip to the meeting was first, then until while no x in '.repeat(1_050)}end`;
  const longStart = process.cpuUsage();
  classifyEntry(long, '2026-11-16');
  const longUsed = process.cpuUsage(longStart);
  return {
    perLineUs: round((used.user + used.system) / (passes * lines.length), 2),
    longLineMs: round((longUsed.user + longUsed.system) / 1000, 1),
  };
}
