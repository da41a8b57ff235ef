import fs from 'node:fs';
import path from 'node:path';
import type { DreamRun } from '../contract/index.js';
import { ReverieError, errnoCode } from '../platform/errors.js';
import { toPosix } from '../workspace/layout.js';
import { parseMarkdownEntries } from '../workspace/markdownEntries.js';
import { conceptTags } from './conceptTags.js';
import { removeStaleTempFiles, writeCuratedFile } from '../workspace/curatedFiles.js';
import { classifyBackfillEntry } from './diary/classifyBackfillEntry.js';
import { appendBackfillEntry } from './diary/writeDiary.js';
import { readDiarySnapshot } from './diarySnapshot.js';
import { entryHash } from './recall/entryKeys.js';
import { newDreamRunId } from './runIds.js';
import { emptyRun, finishRun, recordBeforeRename } from './runRecord.js';
import type { SweepEnvironment } from './sweepEnvironment.js';

const DAILY_NOTE = /^(\d{4}-\d{2}-\d{2})(?:[-_.][^/]*)?\.md$/i;
const MAX_BACKFILL_NOTES = 2000;
const MAX_ITEMS_PER_DAY = 12;

interface DailyNote {
  day: string;
  abs: string;
  /** Workspace-relative when inside the workspace (then its entries can be staged), else absolute. */
  ref: string;
  inWorkspace: boolean;
}

/**
 * Backfill: replays old daily notes into the diary (one entry each, inside the diary markers in
 * OpenClaw's format) and stages their likely-durable entries as candidates. A run like any
 * other: it can be dry-run and rolled back.
 */
export function runBackfill(env: SweepEnvironment, target: string, dryRun: boolean): DreamRun {
  const startedAt = env.now();
  const notes = findDailyNotes(env.workspaceRoot, target);
  const thresholds = { minScore: env.settings.minScore, minRecallCount: env.settings.minRecallCount, minUniqueQueries: env.settings.minUniqueQueries, maxPromotions: env.settings.maxPromotions };
  const run: DreamRun = { ...emptyRun(newDreamRunId(startedAt), 'backfill', dryRun, thresholds, startedAt), backfill: { path: target, days: notes.length } };
  run.phases.light.lookbackDays = 0;
  run.phases.rem.lookbackDays = 0;
  const lock = env.lock.tryAcquire(run.id);
  if (!lock.acquired) return finishRun(env, run, 'skipped', `another dreaming sweep is running (${lock.holder.runId}, process ${lock.holder.pid})`);
  try {
    env.runs.markInterrupted(run.id);
    removeStaleTempFiles(env.workspaceRoot);
    const parsed = notes.map((note) => ({ note, entries: parseMarkdownEntries(readUtf8(note.abs, note.ref)).filter((e) => e.body.length > 0) }));
    const tagDays = new Map<string, Set<string>>();
    for (const { note, entries } of parsed) for (const e of entries) for (const t of conceptTags(e.body)) (tagDays.get(t) ?? tagDays.set(t, new Set()).get(t)!).add(note.day);

    const diary = readDiarySnapshot(env.workspaceRoot);
    if (diary.truncated) return finishRun(env, run, 'skipped', 'DREAMS.md is larger than 16 MB; backfill does not rewrite it.');
    let text = diary.text;
    const added: string[] = [];
    const staged: Array<{ path: string; hash: string }> = [];
    for (const { note, entries } of parsed) {
      const items = entries.slice(0, MAX_ITEMS_PER_DAY).map((e) => ({ entry: e, label: classifyBackfillEntry(e.raw, note.day), ref: `${note.ref}:${e.startLine}` }));
      const recurring = [...new Set(entries.flatMap((e) => conceptTags(e.body)))].filter((t) => (tagDays.get(t)?.size ?? 0) >= 2).slice(0, 3);
      const edit = appendBackfillEntry(text, {
        day: note.day,
        source: note.ref,
        whatHappened: items.map((i) => `${i.entry.body} [${i.ref}]`),
        reflections: recurring.map((t) => `“${t}” recurs on ${tagDays.get(t)!.size} of the backfilled days.`),
        candidates: items.map((i) => ({ label: i.label, text: i.entry.body, ref: i.ref })),
        possibleUpdates: items.filter((i) => i.label === 'likely_durable').slice(0, 3).map((i) => `Add “${i.entry.body}” to MEMORY.md. [${i.ref}]`),
      });
      text = edit.text;
      added.push(...edit.added);
      if (note.inWorkspace) for (const i of items) if (i.label === 'likely_durable') staged.push({ path: note.ref, hash: entryHash(i.entry.raw) ?? '' });
    }
    run.phases.light = { lookbackDays: 0, gathered: parsed.reduce((n, p) => n + p.entries.length, 0), staged: staged.length, duplicates: 0 };
    run.narrative = `I went back over ${notes.length} old daily note(s) and wrote what I found into the diary; ${staged.length} entr${staged.length === 1 ? 'y looks' : 'ies look'} durable and wait for the next sweeps.`;
    if (added.length === 0) return finishRun(env, run, 'nothing-to-do', notes.length === 0 ? `no dated daily notes (YYYY-MM-DD.md) under ${target}` : 'every day found was already backfilled');
    const record = { file: 'DREAMS.md' as const, outcome: 'dry-run' as DreamRun['writes'][number]['outcome'], reason: null as string | null, beforeSha256: diary.sha256, afterSha256: null as string | null, added, changed: [], removed: [], preImageId: null as string | null };
    run.writes.push(record);
    if (!dryRun) {
      const result = writeCuratedFile(diary, text, env.preImages, `backfill ${run.id}`, run.id, recordBeforeRename(env, run, record));
      if (result.outcome === 'aborted') return finishRun(env, run, 'failed', result.reason);
      Object.assign(record, { outcome: 'written', afterSha256: result.afterSha256, preImageId: result.preImageId });
      const insert = env.dreamDb.prepare(
        "INSERT OR IGNORE INTO staged_candidates (path, entry_hash, status, run_id, first_staged_at, last_staged_at) VALUES (?, ?, 'staged', ?, ?, ?)",
      );
      env.dreamDb.transaction(() => staged.forEach((s) => insert.run(s.path, s.hash, run.id, startedAt, startedAt)))();
    }
    return finishRun(env, run, 'ok', null);
  } catch (error) {
    return finishRun(env, run, 'failed', (error as Error).message);
  } finally {
    env.lock.release();
  }
}

function findDailyNotes(workspaceRoot: string, target: string): DailyNote[] {
  const abs = path.resolve(workspaceRoot, target);
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(abs);
  } catch (error) {
    throw new ReverieError('not-found', `Backfill path ${target} does not exist (${errnoCode(error) ?? 'unreadable'}); give a daily note or a folder of them.`);
  }
  if (stat.isSymbolicLink()) throw new ReverieError('forbidden', `Backfill path ${target} is a symbolic link; give the real folder.`);
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      if (files.length >= MAX_BACKFILL_NOTES || d.name.startsWith('.') || d.isSymbolicLink()) continue;
      const full = path.join(dir, d.name);
      if (d.isDirectory()) walk(full);
      else if (d.isFile() && DAILY_NOTE.test(d.name)) files.push(full);
    }
  };
  if (stat.isDirectory()) walk(abs);
  else if (DAILY_NOTE.test(path.basename(abs))) files.push(abs);
  else throw new ReverieError('invalid-input', `${target} is not a daily note: backfill reads files named YYYY-MM-DD.md (or a folder of them).`);
  return files
    .map((file) => {
      const rel = toPosix(path.relative(workspaceRoot, file));
      const inWorkspace = !rel.startsWith('..') && !path.isAbsolute(rel);
      return { day: DAILY_NOTE.exec(path.basename(file))![1]!, abs: file, ref: inWorkspace ? rel : toPosix(file), inWorkspace };
    })
    .sort((a, b) => a.day.localeCompare(b.day) || a.ref.localeCompare(b.ref));
}

function readUtf8(abs: string, ref: string): string {
  const bytes = fs.readFileSync(abs);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    throw new ReverieError('invalid-input', `${ref} is not UTF-8; re-save it as UTF-8 to backfill it.`, { cause: error });
  }
}
