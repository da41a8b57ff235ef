/**
 * LoCoMo evidence recall through the product's own search. The data file is read at run
 * time from the path given on the command line and only written to temp workspaces.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SearchResult } from '../../core/src/contract/index.js';
import { BenchEngine, makeTempWorkspace, removeTempWorkspace } from './engine.js';
import { log, mean, round, summarizeLatency, table, type LatencySummary } from './stats.js';

interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

interface QaItem {
  question: string;
  evidence: unknown;
  category: number;
}

interface Sample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: QaItem[];
}

export const CATEGORY_NAMES: Record<string, string> = {
  '1': 'multi-hop',
  '2': 'temporal',
  '3': 'open-domain',
  '4': 'single-hop',
  '5': 'adversarial',
};

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const LIMIT = 10;
/**
 * Conversations are split into folds by their order in the file (sample i goes to fold i mod 3):
 * constants are tuned on folds 0–1 and fold 2 is reported held out, so a change that only fits
 * the conversations it was tuned on shows up as a gap between the two.
 */
export const FOLDS = 3;
export const HELD_OUT_FOLD = 2;

export interface RecallFigures {
  n: number;
  /** Multi-hop (category 1) and temporal (category 2) figures of the same questions, for the fold tables. */
  multi_hop_at_1500_chars?: number;
  temporal_at_10?: number;
  recall_at_5: number;
  recall_at_10: number;
  recall_at_1500_chars: number;
  recall_at_3500_chars: number;
  /** Share of evidence turns whose session file is among the top-10 result paths (ranking before snippet cutting). */
  file_recall_at_10: number;
  /** Questions with every evidence turn in the top-10 snippets, percent. */
  all_evidence_at_10: number;
}

export interface LocomoReport extends RecallFigures {
  n_questions: number;
  by_category: Record<string, RecallFigures>;
  by_sample: Record<string, RecallFigures & { sessions: number; turns: number; chunks: number; index_s: number }>;
  /** Each fold's figures (fold i holds samples i, i+3, …), and fold HELD_OUT_FOLD's figures apart: never tuned on. */
  by_fold: Record<string, RecallFigures & { samples: string[] }>;
  tuning_folds: RecallFigures;
  held_out: RecallFigures;
  samples: number;
  sessions: number;
  turns: number;
  questions_total: number;
  questions_skipped_no_evidence: number;
  evidence_ids_valid: number;
  evidence_skipped: { empty_lists: number; malformed_strings: number; unknown_ids: number };
  dates_unparsed: number;
  search: LatencySummary;
  /** CPU time of this process per memory.search call (unbudgeted and both budgets alike), ms. */
  search_cpu_ms_per_call: number;
  mean_results: number;
  /** Questions that got fewer than `limit` results, percent (the planner selected too few matching chunks). */
  results_below_limit_pct: number;
  zero_results: number;
  mean_snippet_chars: number;
  index_s_total: number;
  method: string;
}

interface QuestionScore {
  category: string;
  sample: string;
  fold: number;
  r5: number;
  r10: number;
  r1500: number;
  r3500: number;
  file10: number;
  all10: number;
}

/** Parses "1:56 pm on 8 May, 2023" into 2023-05-08; null when it does not look like that. */
export function parseSessionDate(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const m = /(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/.exec(raw);
  if (!m) return null;
  const month = MONTHS.indexOf(m[2]!.toLowerCase());
  if (month < 0) return null;
  const day = Number(m[1]);
  return `${m[3]}-${String(month + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Every `D<s>:<t>` in an evidence list (strings may hold several ids or junk). */
function parseEvidence(evidence: unknown): { ids: string[]; malformed: number; empty: boolean } {
  const list = Array.isArray(evidence) ? evidence : [];
  const ids: string[] = [];
  let malformed = 0;
  for (const item of list) {
    const matches = typeof item === 'string' ? [...item.matchAll(/D(\d+):(\d+)/g)] : [];
    if (matches.length === 0) malformed++;
    for (const m of matches) ids.push(`D${Number(m[1])}:${Number(m[2])}`);
  }
  return { ids: [...new Set(ids)], malformed, empty: list.length === 0 };
}

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ').trim();
}

/** The session notes of one sample: path → text, and the session file holding each turn id. */
function sessionNotes(sample: Sample): { files: Map<string, string>; fileOfTurn: Map<string, string>; lineOfTurn: Map<string, string>; turns: number; unparsed: number } {
  const conv = sample.conversation;
  const files = new Map<string, string>();
  const fileOfTurn = new Map<string, string>();
  const lineOfTurn = new Map<string, string>();
  let turns = 0;
  let unparsed = 0;
  const sessionKeys = Object.keys(conv)
    .map((k) => /^session_(\d+)$/.exec(k))
    .filter((m): m is RegExpExecArray => m !== null && Array.isArray(conv[m[0]]))
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  for (const n of sessionKeys) {
    const when = conv[`session_${n}_date_time`];
    let date = parseSessionDate(when);
    if (!date) {
      unparsed++;
      date = `1970-01-${String(Math.min(28, n)).padStart(2, '0')}`;
    }
    const rel = `memory/${date}-${sample.sample_id}-s${n}.md`;
    const lines = [`# ${typeof when === 'string' ? when : date} — session ${n}`, ''];
    for (const turn of conv[`session_${n}`] as Turn[]) {
      const caption = typeof turn.blip_caption === 'string' && turn.blip_caption ? ` [image: ${oneLine(turn.blip_caption)}]` : '';
      lines.push(`- [${turn.dia_id}] ${turn.speaker}: ${oneLine(String(turn.text ?? ''))}${caption}`);
      fileOfTurn.set(turn.dia_id, rel);
      lineOfTurn.set(turn.dia_id, lines[lines.length - 1]!);
      turns++;
    }
    files.set(rel, lines.join('\n') + '\n');
  }
  return { files, fileOfTurn, lineOfTurn, turns, unparsed };
}

/** Share of `tags` found in snippet text concatenated in rank order and cut at `budget` chars. */
function recallAtBudget(results: readonly SearchResult[], tags: readonly string[], budget: number): number {
  const found = new Set<string>();
  let used = 0;
  for (const r of results) {
    if (used >= budget) break;
    for (const tag of tags) {
      if (found.has(tag)) continue;
      let at = r.snippet.indexOf(tag);
      while (at >= 0) {
        if (used + at + tag.length <= budget) {
          found.add(tag);
          break;
        }
        at = r.snippet.indexOf(tag, at + 1);
      }
    }
    used += r.snippet.length;
  }
  return found.size / tags.length;
}

function recallAtK(results: readonly SearchResult[], tags: readonly string[], k: number): number {
  const text = results.slice(0, k).map((r) => r.snippet).join('\n');
  return tags.filter((t) => text.includes(t)).length / tags.length;
}

/** One question's evidence not shown at 1,500 characters, and how far each turn got (`--misses`). */
export interface MissRecord {
  sample: string;
  category: string;
  question: string;
  missed: Array<{ id: string; line: string; shownAt3500: boolean; inTop10Snippets: boolean; fileInTop10: boolean }>;
}

/** The evidence of one question the 1,500-character page leaves out, or null when it shows all of it. */
export function missRecord(
  question: Pick<MissRecord, 'sample' | 'category' | 'question'>,
  ids: readonly string[],
  pages: { packed1500: readonly SearchResult[]; packed3500: readonly SearchResult[]; top10: readonly SearchResult[] },
  turns: { fileOfTurn: ReadonlyMap<string, string>; lineOfTurn: ReadonlyMap<string, string> },
): MissRecord | null {
  const shown = (results: readonly SearchResult[], budget: number, id: string): boolean => recallAtBudget(results, [`[${id}]`], budget) === 1;
  const missed = ids
    .filter((id) => !shown(pages.packed1500, 1500, id))
    .map((id) => ({
      id,
      line: turns.lineOfTurn.get(id) ?? '',
      shownAt3500: shown(pages.packed3500, 3500, id),
      inTop10Snippets: recallAtK(pages.top10, [`[${id}]`], 10) === 1,
      fileInTop10: pages.top10.slice(0, 10).some((r) => r.path === turns.fileOfTurn.get(id)),
    }));
  return missed.length === 0 ? null : { ...question, missed };
}

function figures(scores: readonly QuestionScore[]): RecallFigures {
  const pct = (f: (s: QuestionScore) => number, of: readonly QuestionScore[] = scores): number => round(100 * mean(of.map(f)), 2);
  const multiHop = scores.filter((s) => s.category === '1');
  const temporal = scores.filter((s) => s.category === '2');
  return {
    n: scores.length,
    multi_hop_at_1500_chars: pct((s) => s.r1500, multiHop),
    temporal_at_10: pct((s) => s.r10, temporal),
    recall_at_5: pct((s) => s.r5),
    recall_at_10: pct((s) => s.r10),
    recall_at_1500_chars: pct((s) => s.r1500),
    recall_at_3500_chars: pct((s) => s.r3500),
    file_recall_at_10: pct((s) => s.file10),
    all_evidence_at_10: pct((s) => s.all10),
  };
}

function readSamples(file: string): Sample[] {
  const raw: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!Array.isArray(raw)) throw new Error(`${file}: expected a JSON array of LoCoMo samples`);
  return raw.map((s: unknown, i) => {
    const o = s as Partial<Sample>;
    if (!o || typeof o !== 'object' || typeof o.conversation !== 'object' || !Array.isArray(o.qa)) {
      throw new Error(`${file}: sample ${i} has no conversation or qa list`);
    }
    return { sample_id: String(o.sample_id ?? `sample-${i}`), conversation: o.conversation as Record<string, unknown>, qa: o.qa };
  });
}

/**
 * With `folds`, only the samples of those folds are indexed and asked (fold i holds samples i, i+3, …); the others are never read past their ids.
 * With `missesFile`, the evidence each question of the tuning folds misses at 1,500 characters is written there as JSON lines
 * (MissRecord); the held-out fold's misses are never written, so they cannot be tuned on.
 */
export async function runLocomo(file: string, folds: readonly number[] | null = null, missesFile: string | null = null): Promise<LocomoReport> {
  const allSamples = readSamples(path.resolve(file));
  const foldOf = new Map(allSamples.map((s, i) => [s.sample_id, i % FOLDS]));
  const samples = folds ? allSamples.filter((s) => folds.includes(foldOf.get(s.sample_id)!)) : allSamples;
  log(`LoCoMo: ${samples.length} samples from ${file}${folds ? ` (folds ${folds.join(', ')})` : ''}`);
  const scores: QuestionScore[] = [];
  const latencies: number[] = [];
  const resultCounts: number[] = [];
  const snippetChars: number[] = [];
  const skipped = { empty_lists: 0, malformed_strings: 0, unknown_ids: 0 };
  const bySample: LocomoReport['by_sample'] = {};
  let sessions = 0;
  let turns = 0;
  let questionsTotal = 0;
  let noEvidence = 0;
  let validIds = 0;
  let unparsedDates = 0;
  let indexTotal = 0;
  // CPU of this process during searches (the engine runs in-process): load does not inflate it as it does wall time.
  let searchCpuMicros = 0;
  let searchCalls = 0;
  const misses: MissRecord[] = [];

  for (const sample of samples) {
    const ws = makeTempWorkspace(`locomo-${sample.sample_id.replace(/[^\w-]/g, '_')}`);
    let engine: BenchEngine | null = null;
    try {
      const notes = sessionNotes(sample);
      for (const [rel, text] of notes.files) fs.writeFileSync(path.join(ws.workspace, rel), text);
      sessions += notes.files.size;
      turns += notes.turns;
      unparsedDates += notes.unparsed;

      engine = new BenchEngine(ws);
      const { report, seconds } = await engine.sync();
      indexTotal += seconds;

      const sampleScores: QuestionScore[] = [];
      for (const qa of sample.qa) {
        questionsTotal++;
        const ev = parseEvidence(qa.evidence);
        if (ev.empty) skipped.empty_lists++;
        skipped.malformed_strings += ev.malformed;
        const known = ev.ids.filter((id) => notes.fileOfTurn.has(id));
        skipped.unknown_ids += ev.ids.length - known.length;
        if (known.length === 0) {
          noEvidence++;
          continue;
        }
        validIds += known.length;
        const tags = known.map((id) => `[${id}]`);
        const cpuBefore = process.cpuUsage();
        const { results, wallMs } = await engine.search(String(qa.question), LIMIT);
        latencies.push(wallMs);
        resultCounts.push(results.length);
        for (const r of results) snippetChars.push(r.snippet.length);
        const paths = new Set(results.map((r) => r.path));
        // The char-budget figures ask the engine to pack its snippets into the budget, as an agent would.
        const packed1500 = (await engine.search(String(qa.question), LIMIT, 1500)).results;
        const packed3500 = (await engine.search(String(qa.question), LIMIT, 3500)).results;
        const cpu = process.cpuUsage(cpuBefore);
        searchCpuMicros += cpu.user + cpu.system;
        searchCalls += 3;
        const r10 = recallAtK(results, tags, 10);
        const score: QuestionScore = {
          category: String(qa.category),
          sample: sample.sample_id,
          fold: foldOf.get(sample.sample_id) ?? 0,
          r5: recallAtK(results, tags, 5),
          r10,
          r1500: recallAtBudget(packed1500, tags, 1500),
          r3500: recallAtBudget(packed3500, tags, 3500),
          file10: known.filter((id) => paths.has(notes.fileOfTurn.get(id)!)).length / known.length,
          all10: r10 === 1 ? 1 : 0,
        };
        scores.push(score);
        sampleScores.push(score);
        if (missesFile && score.fold !== HELD_OUT_FOLD) {
          const miss = missRecord({ sample: sample.sample_id, category: score.category, question: String(qa.question) }, known, { packed1500, packed3500, top10: results }, notes);
          if (miss) misses.push(miss);
        }
      }
      bySample[sample.sample_id] = {
        ...figures(sampleScores),
        sessions: notes.files.size,
        turns: notes.turns,
        chunks: report.chunks,
        index_s: round(seconds, 3),
      };
      log(
        `  ${sample.sample_id}: ${notes.files.size} sessions, ${notes.turns} turns, ${report.chunks} chunks, ` +
          `${sampleScores.length} questions, R@10 ${bySample[sample.sample_id]!.recall_at_10}`,
      );
    } finally {
      await engine?.close();
      removeTempWorkspace(ws);
    }
  }

  if (missesFile) {
    fs.writeFileSync(missesFile, misses.map((m) => JSON.stringify(m)).join('\n') + (misses.length > 0 ? '\n' : ''));
    log(`${misses.length} questions with evidence missed at 1,500 characters written to ${missesFile}`);
  }
  const byCategory: Record<string, RecallFigures> = {};
  for (const cat of ['1', '2', '3', '4', '5']) byCategory[cat] = figures(scores.filter((s) => s.category === cat));
  for (const cat of new Set(scores.map((s) => s.category))) {
    if (!(cat in byCategory)) byCategory[cat] = figures(scores.filter((s) => s.category === cat));
  }

  const overall = figures(scores);
  const byFold: LocomoReport['by_fold'] = {};
  for (let fold = 0; fold < FOLDS; fold++) {
    if (folds && !folds.includes(fold)) continue;
    byFold[String(fold)] = { ...figures(scores.filter((s) => s.fold === fold)), samples: samples.filter((s) => foldOf.get(s.sample_id) === fold).map((s) => s.sample_id) };
  }
  const out: LocomoReport = {
    ...overall,
    n_questions: scores.length,
    by_category: byCategory,
    by_sample: bySample,
    by_fold: byFold,
    tuning_folds: figures(scores.filter((s) => s.fold !== HELD_OUT_FOLD)),
    held_out: figures(scores.filter((s) => s.fold === HELD_OUT_FOLD)),
    samples: samples.length,
    sessions,
    turns,
    questions_total: questionsTotal,
    questions_skipped_no_evidence: noEvidence,
    evidence_ids_valid: validIds,
    evidence_skipped: skipped,
    dates_unparsed: unparsedDates,
    search: summarizeLatency(latencies),
    search_cpu_ms_per_call: round(searchCpuMicros / 1000 / Math.max(1, searchCalls), 3),
    mean_results: round(mean(resultCounts), 2),
    results_below_limit_pct: round((100 * resultCounts.filter((n) => n < LIMIT).length) / Math.max(1, resultCounts.length), 1),
    zero_results: resultCounts.filter((n) => n === 0).length,
    mean_snippet_chars: round(mean(snippetChars), 1),
    index_s_total: round(indexTotal, 3),
    method:
      'one workspace per sample, one note per session (`- [Ds:t] Speaker: text [image: caption]`); memory.search limit 10; ' +
      'a turn counts when its [Ds:t] tag is in a snippet; char budgets are passed to memory.search (budget packing) and count snippet text only, concatenated in rank order; ' +
      'evidence ids not present in the conversation are dropped',
  };
  log('');
  log(locomoTable(out));
  log('');
  log(foldTable(out));
  log(
    `search p50 ${out.search.p50_ms} ms, p95 ${out.search.p95_ms} ms, CPU ${out.search_cpu_ms_per_call} ms per call; mean ${out.mean_results} results of ${LIMIT} ` +
      `(${out.results_below_limit_pct}% of questions under-filled), mean snippet ${out.mean_snippet_chars} chars; ` +
      `evidence skipped: ${JSON.stringify(out.evidence_skipped)}, ${out.questions_skipped_no_evidence} questions without valid evidence`,
  );
  return out;
}

export function locomoTable(r: LocomoReport): string {
  const row = (label: string, f: RecallFigures): string[] => [
    label,
    String(f.n),
    f.recall_at_5.toFixed(1),
    f.recall_at_10.toFixed(1),
    f.recall_at_1500_chars.toFixed(1),
    f.recall_at_3500_chars.toFixed(1),
    f.file_recall_at_10.toFixed(1),
  ];
  const rows = Object.entries(r.by_category).map(([cat, f]) => row(`${cat} ${CATEGORY_NAMES[cat] ?? ''}`.trim(), f));
  rows.push(row('all', r));
  return table(['category', 'n', 'R@5', 'R@10', 'R@1500c', 'R@3500c', 'fileR@10'], rows);
}

/** All-dev figures next to the tuning folds, the held-out fold and each fold. */
export function foldTable(r: LocomoReport): string {
  const row = (label: string, f: RecallFigures): string[] => [
    label,
    String(f.n),
    f.recall_at_1500_chars.toFixed(1),
    f.recall_at_3500_chars.toFixed(1),
    f.recall_at_10.toFixed(1),
    (f.temporal_at_10 ?? 0).toFixed(1),
    (f.multi_hop_at_1500_chars ?? 0).toFixed(1),
  ];
  const rows = [row('all dev', r), row(`tuning (folds ≠ ${HELD_OUT_FOLD})`, r.tuning_folds)];
  if (r.held_out.n > 0) rows.push(row(`held out (fold ${HELD_OUT_FOLD})`, r.held_out));
  for (const [fold, f] of Object.entries(r.by_fold)) rows.push(row(`fold ${fold} (${f.samples.join(', ')})`, f));
  return table(['questions', 'n', 'R@1500c', 'R@3500c', 'R@10', 'temporal R@10', 'multi-hop @1500c'], rows);
}
