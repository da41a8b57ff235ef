/**
 * The chat-model phase of a graph update, after the rules' graph is written: files the model
 * has not read in their current version (this update's changes first) are asked about, within
 * a prompt cap and a time budget; what survives validation is written into their entries in
 * time slices. A failed model stops the phase with its reason and leaves the rules' graph as
 * it is. With the setting off, files carrying model items are extracted again by the rules.
 */
import fs from 'node:fs';
import type Database from 'better-sqlite3';
import { sha256Hex } from '../platform/hash.js';
import { ChatModelSession } from '../platform/chatModel/chatProcess.js';
import { inTimeSlices } from '../platform/timeSlices.js';
import { extractIndexedFile, extractionSteps, rewriteSteps, type IndexedFile } from './extractionSteps.js';
import type { ExtractionContext } from './extractFile.js';
import type { GraphWriter } from './graphWriter.js';
import { DROP_RULES, noDrops, type DropCounts, type DropRule } from './modelAnswer.js';
import { addModelItems, askModel, type ChatModelChoice } from './modelExtraction.js';
import { ModelFiles } from './modelFiles.js';
import { batchEntries } from './modelPrompt.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('graph/model');

/** A model at tens of seconds per prompt must not hold the index's queue for long: the rest waits for the next update. */
export const MAX_PROMPTS_PER_UPDATE = 8;
const PASS_BUDGET_MS = 120_000;
/** How often a running prompt checks whether the engine is stopping. */
const STOP_POLL_MS = 100;

export type ModelExtractionSetting =
  | { enabled: false }
  | { enabled: true; model: ChatModelChoice | null; timeoutMs: number; maxPrompts?: number };

export interface ModelExtractionReport {
  /** off: the setting is off; ok: the model was asked (or had nothing to read); fallback: it added nothing, see `reason`. */
  status: 'off' | 'ok' | 'fallback';
  model: string | null;
  /** Files the model read in this update, and files still to read (over the cap, or after a failure). */
  files: number;
  pending: number;
  prompts: number;
  meanPromptMs: number | null;
  slowestPromptMs: number | null;
  /** Items added to the graph (new to their entries), items the model offered, and those dropped, by rule. */
  entities: number;
  claims: number;
  offered: number;
  dropped: DropCounts;
  /** Files whose model items were removed because the setting is off. */
  removed: number;
  /** Why the model added nothing (no chat model, the model failed, its answers were rejected), in words for the person. */
  reason: string | null;
}

export interface ModelPassContext {
  db: Database.Database;
  writer: GraphWriter;
  /** Runs work in one short transaction (flushing the writer's counts). */
  slice: (work: () => void) => void;
  /** Forgets a file's graph (and its model record). */
  forget: (path: string) => void;
  /** Collects what lost its evidence (call inside `slice`). */
  settle: () => void;
  /** The indexed memory files (read only when the model phase has work: 100,000 rows cost a read), and those this update re-extracted. */
  files: () => readonly IndexedFile[];
  /** What the rules' extraction knows beyond each file (the writer's name). */
  extraction: ExtractionContext;
  changed: ReadonlySet<string>;
  shouldStop?: () => boolean;
  /**
   * Something more urgent waits (another sync: an edit must reach search in seconds, not after
   * minutes of prompts): the model phase stops, a prompt in flight is abandoned, and the files
   * it did not read are asked about at a later update. Not a failure.
   */
  yieldTo?: () => boolean;
}

export async function runModelPass(ctx: ModelPassContext, setting: ModelExtractionSetting): Promise<ModelExtractionReport> {
  const modelFiles = new ModelFiles(ctx.db);
  const rows = modelFiles.all();
  // The setting off and no file ever read by the model: nothing to drop or re-extract.
  if (!setting.enabled && rows.length === 0) return emptyReport('off', null);
  const files = ctx.files();
  const present = new Map(files.map((f) => [f.path, f]));
  const gone = rows.filter((r) => !present.has(r.path));
  if (gone.length > 0) ctx.slice(() => gone.forEach((r) => modelFiles.drop(r.path)));
  const report = emptyReport(setting.enabled ? 'ok' : 'off', setting.enabled ? (setting.model?.name ?? null) : null);
  if (!setting.enabled) {
    const carrying = rows.filter((r) => r.items > 0 && present.has(r.path)).map((r) => present.get(r.path)!);
    report.removed = carrying.length;
    const stale = rows.filter((r) => r.items === 0 && present.has(r.path));
    if (stale.length > 0) ctx.slice(() => stale.forEach((r) => modelFiles.drop(r.path)));
    // All forgotten and settled before any is extracted again: a name only the model knew must be
    // gone, or a sentence-initial word in the next file would join it ("kept when the graph knows it").
    // Stopped midway, a forgotten file has no graph_files row: the next update extracts it.
    await inTimeSlices(carrying, ctx.slice, (file) => ctx.forget(file.path), { shouldStop: ctx.shouldStop });
    if (ctx.shouldStop?.()) return report;
    ctx.slice(ctx.settle);
    await inTimeSlices(extractionSteps(ctx.db, ctx.writer, carrying, null, ctx.extraction), ctx.slice, (step) => step(), { shouldStop: ctx.shouldStop });
    return report;
  }
  const { model } = setting;
  if (!model) {
    report.status = 'fallback';
    report.reason = 'no chat model is installed: add one in Settings → Models (role "chat") or with `reverie models pull <file or URL> --role chat`; until then the graph is built by the rules alone';
    return report;
  }
  const read = new Map(rows.map((r) => [r.path, r]));
  const pending = files
    .filter((f) => {
      const r = read.get(f.path);
      return !r || r.sha256 !== f.sha256 || r.model !== model.name;
    })
    .sort((a, b) => Number(ctx.changed.has(b.path)) - Number(ctx.changed.has(a.path)) || (a.path < b.path ? -1 : 1));
  const maxPrompts = setting.maxPrompts ?? MAX_PROMPTS_PER_UPDATE;
  const started = performance.now();
  const promptMs: number[] = [];
  const rejected: string[] = [];
  let kept = 0;
  let failure: string | null = null;
  const stop = new AbortController();
  const stopping = (): boolean => Boolean(ctx.shouldStop?.() || ctx.yieldTo?.());
  const poll = setInterval(() => stopping() && stop.abort(), STOP_POLL_MS);
  // One model process for the whole update: the model loads once, not once per prompt.
  const chat = new ChatModelSession({ modelPath: model.path, signal: stop.signal });
  try {
    for (const file of pending) {
      if (report.prompts >= maxPrompts || performance.now() - started > PASS_BUDGET_MS || stopping()) break;
      // Only the version the graph holds (a file changed since indexing, or cut off mid-extraction, waits for the next sync).
      if (modelFiles.extractedSha(file.path) !== file.sha256) continue;
      const text = readVersion(file);
      if (text === null) continue;
      const lines = text.split(/\r?\n/);
      const entries = extractIndexedFile(file, text, ctx.extraction);
      const batches = batchEntries(entries, lines);
      // A file needing more prompts than are left waits for an update of its own (which asks about its first batches at least).
      if (report.prompts > 0 && batches.length > maxPrompts - report.prompts) break;
      const answers = await askModel(batches, { chat, timeoutMs: setting.timeoutMs, maxPrompts: maxPrompts - report.prompts });
      // Stopped on purpose (closing, or a sync waits): what this file's prompts said is dropped, it is asked again later.
      if (stop.signal.aborted) break;
      report.prompts += answers.prompts;
      promptMs.push(...answers.promptMs);
      report.offered += answers.offered;
      for (const rule of DROP_RULES) report.dropped[rule] += answers.dropped[rule];
      rejected.push(...answers.rejected);
      if (answers.failure) {
        failure = answers.failure;
        break;
      }
      kept += answers.entities.length + answers.relations.length;
      const added = addModelItems(entries, answers.entities, answers.relations);
      const items = added.entities + added.claims;
      const record = () => modelFiles.record(file.path, file.sha256, model.name, items);
      if (items === 0) ctx.slice(record);
      else await inTimeSlices(rewriteSteps(ctx.db, ctx.writer, file, text, added.entries, ctx.forget, record), ctx.slice, (step) => step(), { shouldStop: ctx.shouldStop });
      report.files++;
      report.entities += added.entities;
      report.claims += added.claims;
    }
  } finally {
    clearInterval(poll);
    await chat.close();
  }
  report.pending = pending.length - report.files;
  report.meanPromptMs = promptMs.length > 0 ? Math.round(promptMs.reduce((a, b) => a + b, 0) / promptMs.length) : null;
  report.slowestPromptMs = promptMs.length > 0 ? Math.max(...promptMs) : null;
  const why = failure ?? (report.prompts > 0 && kept === 0 ? rejection(report, rejected) : null);
  if (why) Object.assign(report, { status: 'fallback', reason: `${why}; the graph keeps what the rules extracted` });
  return report;
}

function emptyReport(status: ModelExtractionReport['status'], model: string | null): ModelExtractionReport {
  return { status, model, files: 0, pending: 0, prompts: 0, meanPromptMs: null, slowestPromptMs: null, entities: 0, claims: 0, offered: 0, dropped: noDrops(), removed: 0, reason: null };
}

/** The file's text when it is still the indexed version (the model takes seconds; the person may have typed since). */
function readVersion(file: IndexedFile): string | null {
  try {
    const bytes = fs.readFileSync(file.abs_path);
    return sha256Hex(bytes) === file.sha256 ? bytes.toString('utf8') : null;
  } catch (error) {
    // Gone since indexing: the next sync removes it; nothing to extract now.
    log.debug('A file for model extraction could not be read', { path: file.path, error });
    return null;
  }
}

const RULE_WORDS: Record<DropRule, string> = {
  malformed: 'were malformed',
  unknownEntry: 'cited no entry of the prompt',
  typeNotAllowed: 'had a type the graph does not use',
  labelNotInText: 'named something the cited lines do not contain',
  unknownEnd: 'related entities it had not named in that entry',
  badPredicate: 'had an unusable predicate',
};

/** Why nothing the model said was kept: answers that were not JSON or had the wrong shape, or items that all failed validation. */
function rejection(report: ModelExtractionReport, rejected: readonly string[]): string {
  const rules = DROP_RULES.filter((r) => report.dropped[r] > 0).map((r) => `${report.dropped[r]} ${RULE_WORDS[r]}`);
  if (report.offered === 0) return rejected[0] ?? "the chat model's answers were rejected: they named no entities or relations";
  return `the chat model's answers were rejected: none of its ${report.offered} items held up (${rules.join(', ')})`;
}
