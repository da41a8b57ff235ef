import type { DreamCandidate, DreamCuration, DreamFileWrite, DreamPromotion, DreamRun } from '../contract/index.js';
import { ReverieError } from '../platform/errors.js';
import type { PreImageFile } from '../workspace/preImages.js';
import { readCuratedFile, removeStaleTempFiles, writeCuratedFile, type CuratedFileSnapshot } from '../workspace/curatedFiles.js';
import { curatedFacts, promotedKeys } from './curated/memoryFile.js';
import { readDiarySnapshot } from './diarySnapshot.js';
import { narrateDream } from './diary/narrative.js';
import { planDiaryEdit } from './diaryUpdate.js';
import { localDay } from '../platform/localDay.js';
import { planMemoryEdit, planUserEdit } from './memoryEdit.js';
import { runDeepPhase, type RankedCandidate, type Thresholds } from './phases/deepPhase.js';
import { updateFirstSeen } from './phases/firstSeen.js';
import { runLightPhase } from './phases/lightPhase.js';
import { runRemPhase } from './phases/remPhase.js';
import { promotionRecord, proposedLines, toPromotion } from './promotionPlan.js';
import { routePromotions } from './promotionReview.js';
import { applyJudgment, markSupersessions } from './judgment/applyJudgment.js';
import { conflictDecisions, queueConflicts } from './judgment/conflictQueue.js';
import { DocumentReader } from './recall/documentLines.js';
import { compactRecallSignalsInSlices } from './recall/recallCompaction.js';
import { readRecallStats } from './recall/recallStats.js';
import { newDreamRunId } from './runIds.js';
import { candidateBase, emptyRun, finishRun, recordBeforeRename, signalsOf } from './runRecord.js';
import { updateStagedCandidates } from './stagedCandidates.js';
import type { SweepEnvironment, SweepOptions } from './sweepEnvironment.js';
import type { TextEdit } from './types.js';

/**
 * One dreaming sweep: light → REM → deep, then the writes (MEMORY.md, USER.md, DREAMS.md),
 * each only if its file is unchanged since the sweep read it. Every run ends with a status
 * and a reason; nothing fails silently.
 */
export async function runDreamSweep(env: SweepEnvironment, options: SweepOptions): Promise<DreamRun> {
  const startedAt = env.now();
  const run = emptyRun(newDreamRunId(startedAt), options.trigger, options.dryRun, thresholdsFor(env, options), startedAt);
  const lock = env.lock.tryAcquire(run.id);
  if (!lock.acquired) {
    return finishRun(env, run, 'skipped', `another dreaming sweep is running (${lock.holder.runId}, process ${lock.holder.pid}, since ${lock.holder.startedAt})`);
  }
  try {
    env.runs.markInterrupted(run.id);
    removeStaleTempFiles(env.workspaceRoot);
    env.runs.save(run);
    return await sweep(env, run, options);
  } catch (error) {
    return finishRun(env, run, 'failed', error instanceof ReverieError ? error.message : `unexpected error: ${(error as Error).message}`);
  } finally {
    env.lock.release();
  }
}

async function sweep(env: SweepEnvironment, run: DreamRun, options: SweepOptions): Promise<DreamRun> {
  const now = Date.parse(run.startedAt);
  const day = localDay(now);
  const progress = (phase: 'light' | 'rem' | 'deep' | 'consolidate' | 'write', done: number, total: number) =>
    env.onProgress({ type: 'dream-progress', runId: run.id, phase, done, total });

  progress('light', 0, 1);
  await compactRecallSignalsInSlices(env.dreamDb, now);
  const reader = new DocumentReader(env.indexDb, env.workspaceRoot);
  await updateFirstSeen(env.dreamDb, env.indexDb, reader, now);
  const light = await runLightPhase({ dreamDb: env.dreamDb, indexDb: env.indexDb, reader, recall: readRecallStats(env.dreamDb), now });
  run.phases.light = { lookbackDays: light.lookbackDays, gathered: light.gathered.length + light.duplicates.length, staged: light.gathered.length, duplicates: light.duplicates.length };
  progress('light', 1, 1);
  await yieldToHost();

  progress('rem', 0, 1);
  const rem = runRemPhase(light.gathered, now);
  run.phases.rem = { lookbackDays: rem.lookbackDays, themes: rem.themes, reflections: rem.reflections };
  progress('rem', 1, 1);
  await yieldToHost();

  progress('deep', 0, light.gathered.length);
  const memory = readCuratedFile(env.workspaceRoot, 'MEMORY.md');
  const user = readCuratedFile(env.workspaceRoot, 'USER.md');
  const curated = {
    facts: new Set([...curatedFacts(memory.text), ...curatedFacts(user.text)]),
    promotedKeys: promotedKeys(memory.text),
  };
  const ranked = runDeepPhase(light.gathered, rem.boostByKey, run.thresholds, curated, now);
  const passing = ranked.filter((r) => r.passed);
  // Only the person's own lines are written on their own; the rest wait for them.
  const { proposals: routedProposals, automatic: routed } = routePromotions(passing, env.settings.reviewBeforeWriting);
  // Dedupe, supersede by note date, queue contradictions: before anything is written.
  const decisions = conflictDecisions(env.dreamDb);
  const failing = ranked.filter((r) => !r.passed);
  const judged = applyJudgment(routed, memory.text, user.text, run.id, now, decisions, failing);
  const automatic = judged.toWrite;
  // Proposals get the same judgment, against the files as this sweep leaves them: a restatement is
  // not offered, a supersession is offered as one. Their in-place edits wait for approval.
  const judgedProposals = applyJudgment(routedProposals, judged.memoryEdit.text, judged.userEdit.text, run.id, now, decisions, [...failing, ...automatic]);
  const proposals = judgedProposals.toWrite;
  run.curation = addCuration(judged.curation, judgedProposals.curation);
  run.contradictions = [...judged.contradictions, ...judgedProposals.contradictions];
  if (!options.dryRun) queueConflicts(env.dreamDb, run.contradictions);
  run.candidates = [...ranked.map((r) => r.candidate), ...light.duplicates.map((d) => duplicateCandidate(d, ranked))];
  progress('deep', light.gathered.length, light.gathered.length);
  await yieldToHost();

  for (const r of proposals) {
    r.candidate.outcome = 'proposed';
    const promotion = toPromotion(r, memory.text);
    const prior = judgedProposals.supersededBy.get(r.entry.key) ?? [];
    run.promoted.push(promotionRecord(r.entry.key, r.candidate.target!, proposedLines(promotion, r.candidate.target!), 'proposed', prior.length > 0 ? 'superseded' : 'added', prior));
  }
  run.phases.deep = { ranked: ranked.length, passed: passing.length, promoted: 0, proposed: proposals.length };

  progress('consolidate', 0, automatic.length);
  const toMemory = automatic.filter((r) => r.candidate.target === 'MEMORY.md');
  const toUser = automatic.filter((r) => r.candidate.target === 'USER.md');
  const memoryPlan = await planMemoryEdit(
    judged.memoryEdit.text,
    toMemory.map((r) => toPromotion(r, memory.text)),
    {
      day,
      budgetChars: env.settings.memoryBudgetChars,
      chatModelPath: env.chatModel?.path ?? null,
      chatModelName: env.chatModel?.name ?? null,
      timeoutMs: env.settings.modelTimeoutSeconds * 1000,
    },
  );
  run.consolidation = memoryPlan.consolidation;
  if (memoryPlan.refused) {
    for (const r of toMemory) r.candidate.outcome = 'not-written';
    run.writes.push({ ...diaryWrite('aborted', memoryPlan.refused, memory.sha256), file: 'MEMORY.md' });
  }
  const userPlan = planUserEdit(judged.userEdit.text, toUser.map((r) => toPromotion(r, memory.text)));
  markSupersessions(memoryPlan.promotions, judged.supersededBy);
  markSupersessions(userPlan.promotions, judged.supersededBy);
  // The judgment's in-place edits (retired entries, grown source lists) land with the promotions.
  const memoryEdit = memoryPlan.refused ? { text: memory.text, added: [], changed: [], removed: [] } : { ...memoryPlan.edit, changed: [...judged.memoryEdit.changed, ...memoryPlan.edit.changed] };
  const userEdit = { ...userPlan.edit, changed: [...judged.userEdit.changed, ...userPlan.edit.changed], removed: [] };
  progress('consolidate', automatic.length, automatic.length);

  progress('write', 0, 3);
  const origins = new Map(automatic.map((r) => [r.entry.key, r.entry.origin]));
  const memoryWrite = commit(env, run, memory, memoryEdit, memoryPlan.promotions, origins, options.dryRun);
  const userWrite = commit(env, run, user, userEdit, userPlan.promotions, origins, options.dryRun);
  const written = [...memoryWrite, ...userWrite];
  const writtenKeys = new Set(written.map((p) => p.candidateKey));
  for (const r of automatic) {
    if (writtenKeys.has(r.entry.key)) r.candidate.outcome = 'promoted';
    else if (r.candidate.outcome === 'promoted') r.candidate.outcome = 'not-written';
  }
  run.promoted.push(...written);
  run.phases.deep.promoted = written.length;
  progress('write', 2, 3);

  run.narrative = narrateDream(run);
  const somethingHappened = passing.length > 0 || run.writes.some((w) => w.outcome === 'aborted');
  if (somethingHappened) writeDiary(env, run, options.dryRun);
  progress('write', 3, 3);

  if (!options.dryRun) updateStagedCandidates(env.dreamDb, run, ranked, now);
  if (somethingHappened) return finishRun(env, run, 'ok', null);
  return finishRun(env, run, 'nothing-to-do', nothingToDoReason(light.gathered.length, light.alreadyDecided, ranked));
}

/** Writes one curated file (or records what a dry run would write); returns the promotions that landed. */
function commit(
  env: SweepEnvironment,
  run: DreamRun,
  snapshot: CuratedFileSnapshot,
  edit: TextEdit & { removed: string[] },
  promotions: DreamPromotion[],
  origins: Map<string, DreamCandidate['origin']>,
  dryRun: boolean,
): DreamPromotion[] {
  if (edit.text === snapshot.text) return [];
  const record: DreamFileWrite = {
    file: snapshot.name,
    outcome: 'dry-run',
    reason: null,
    beforeSha256: snapshot.sha256,
    afterSha256: null,
    added: edit.added,
    changed: edit.changed,
    removed: edit.removed,
    preImageId: null,
  };
  run.writes.push(record);
  if (dryRun) return promotions;
  const result = writeCuratedFile(snapshot, edit.text, env.preImages, `dream run ${run.id}`, run.id, recordBeforeRename(env, run, record));
  if (result.outcome === 'aborted') {
    Object.assign(record, { outcome: 'aborted', reason: result.reason });
    return [];
  }
  Object.assign(record, { outcome: 'written', afterSha256: result.afterSha256, preImageId: result.preImageId });
  for (const p of promotions) env.recordWrittenLines(snapshot.name, p.lines, origins.get(p.candidateKey) ?? 'owner', run.id, p.candidateKey);
  return promotions;
}

function writeDiary(env: SweepEnvironment, run: DreamRun, dryRun: boolean): void {
  let diary: CuratedFileSnapshot;
  try {
    diary = readDiarySnapshot(env.workspaceRoot);
  } catch (error) {
    // A diary that cannot be read safely (a symlink, not UTF-8) is left alone; memory was already written.
    run.writes.push(diaryWrite('aborted', `${(error as Error).message} The narrative is kept with the run.`, null));
    return;
  }
  if (diary.truncated) {
    run.writes.push(diaryWrite('aborted', 'DREAMS.md is larger than 16 MB, so it was not rewritten; the narrative is kept with the run.', diary.sha256));
    return;
  }
  const edit = planDiaryEdit(diary.text, run, env.timeZone);
  const record = { ...diaryWrite('dry-run', null, diary.sha256), added: edit.added, changed: edit.changed };
  run.writes.push(record);
  if (dryRun) return;
  const result = writeCuratedFile(diary, edit.text, env.preImages, `dream run ${run.id}`, run.id, recordBeforeRename(env, run, record));
  if (result.outcome === 'aborted') Object.assign(record, { outcome: 'aborted', reason: result.reason });
  else Object.assign(record, { outcome: 'written', afterSha256: result.afterSha256, preImageId: result.preImageId });
}

function diaryWrite(outcome: DreamFileWrite['outcome'], reason: string | null, sha: string | null): DreamFileWrite {
  return { file: 'DREAMS.md' satisfies PreImageFile, outcome, reason, beforeSha256: sha, afterSha256: null, added: [], changed: [], removed: [], preImageId: null };
}

function addCuration(a: DreamCuration, b: DreamCuration): DreamCuration {
  return { dedupes: a.dedupes + b.dedupes, supersessions: a.supersessions + b.supersessions, stale: a.stale + b.stale, conflicts: a.conflicts + b.conflicts };
}

function nothingToDoReason(gathered: number, alreadyDecided: number, ranked: RankedCandidate[]): string {
  if (gathered === 0 && alreadyDecided > 0) {
    return `${alreadyDecided} recently recalled or written entr${alreadyDecided === 1 ? 'y was' : 'ies were'} already promoted, rejected, rolled back or waiting for review; nothing new to rank`;
  }
  if (gathered === 0) return 'no entries were recalled or written in the last 2 days, and none were staged earlier';
  const eligible = ranked.filter((r) => r.candidate.outcome !== 'ineligible').length;
  return `${gathered} candidate(s) looked at, ${eligible} eligible; none passed every gate`;
}

function duplicateCandidate(entry: RankedCandidate['entry'], ranked: RankedCandidate[]): DreamCandidate {
  const into = ranked.find((r) => r.entry.duplicateKeys.includes(entry.key));
  return {
    ...candidateBase(entry),
    signals: signalsOf(entry),
    components: into?.candidate.components ?? { relevance: 0, frequency: 0, diversity: 0, recency: 0, consolidation: 0, richness: 0, remBoost: 0 },
    score: into?.candidate.score ?? 0,
    gates: [{ gate: 'near-duplicate', passed: false, detail: `near-identical to ${into?.entry.key ?? 'another candidate'} (similarity ≥ 0.9): its signals count there` }],
    outcome: 'duplicate',
    target: null,
  };
}

/** Lets a host answer searches between phases: a sweep runs beside the person, not instead of them. */
function yieldToHost(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function thresholdsFor(env: SweepEnvironment, options: SweepOptions): Thresholds {
  const s = env.settings;
  return {
    minScore: options.thresholds?.minScore ?? s.minScore,
    minRecallCount: options.thresholds?.minRecallCount ?? s.minRecallCount,
    minUniqueQueries: options.thresholds?.minUniqueQueries ?? s.minUniqueQueries,
    maxPromotions: options.thresholds?.maxPromotions ?? s.maxPromotions,
  };
}
