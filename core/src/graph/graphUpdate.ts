import type Database from 'better-sqlite3';
import type { AliasBook } from './aliases/aliasBook.js';
import { Cooccurrence } from './cooccurrence.js';
import { extractionSteps, writeExtractedInOrder, type IndexedFile } from './extractionSteps.js';
import { ExtractionPool } from './extractionPool.js';
import type { ExtractionContext } from './extractFile.js';
import { GraphWriter } from './graphWriter.js';
import { ModelFiles } from './modelFiles.js';
import { runModelPass, type ModelExtractionReport, type ModelExtractionSetting } from './modelExtractionPass.js';
import { FUNCTIONAL_PREDICATES, HOLDER_PREDICATES, MENTIONED_WITH, WHERE_FAMILY } from './types.js';
import { INDEXED_MEMORY_FILE } from '../index/indexStore.js';
import { inTimeSlices } from '../platform/timeSlices.js';
import { retypeEntities, retypeEntityRange } from './workspaceTypes.js';
import { joinShortOrganisationNames } from './shortOrganisationNames.js';
import { mergeEntity } from './graphWriter.js';

export interface GraphUpdateReport {
  /** Files (re-)extracted, and files whose evidence was removed because they vanished. */
  extracted: number;
  removed: number;
  entities: number;
  claims: number;
  durationMs: number;
  /** CPU time of this process (all threads, user + system) during the update: meaningful on a loaded machine. */
  cpuMs: number;
  /** The chat-model phase (null when the update was stopped before it). */
  model: ModelExtractionReport | null;
  /** Lines of the alias file that were ignored, each a sentence naming the file and line. */
  aliasNotices: string[];
}

/** Indexed memory files whose current text the graph has not extracted (new, or changed since). */
const CHANGED_FILES = (db: Database.Database) =>
  db.prepare(`SELECT f.path, f.abs_path, f.sha256, f.mtime_ms FROM files f LEFT JOIN graph_files g ON g.path = f.path WHERE ${INDEXED_MEMORY_FILE} AND (g.sha256 IS NULL OR g.sha256 <> f.sha256) ORDER BY f.rowid`);

function indexedMemoryFiles(db: Database.Database): IndexedFile[] {
  return db.prepare(`SELECT f.path, f.abs_path, f.sha256, f.mtime_ms FROM files f WHERE ${INDEXED_MEMORY_FILE} ORDER BY f.rowid`).all() as IndexedFile[];
}

/**
 * From this many files, an update extracts them on worker threads (extractionPool.ts) while the
 * engine thread writes; fewer (an edit) are extracted on the engine thread, which is quicker
 * than starting a thread.
 */
export const PARALLEL_EXTRACTION_MIN_FILES = 32;

/** An update changing more files than this (and this share of them) recounts all pairs. */
const REBUILD_MIN_FILES = 50;
const REBUILD_SHARE = 0.1;

/**
 * Brings the graph up to date with the index: re-extracts memory files whose hash changed,
 * drops the evidence of vanished ones, then deletes what is left without evidence and
 * recomputes validity where claims changed. Transcripts and the diary are never extracted.
 * A few changed files update the mentioned_with counts file by file; a first, forced or
 * large extraction recounts them all from the mentions once the files are extracted.
 * Then the chat-model phase (see modelExtractionPass.ts) adds to, or with the setting off
 * removes, what the model extracted; its items sit in the same entries as the rules' ones.
 */
export async function updateGraph(
  db: Database.Database,
  options: {
    force?: boolean;
    shouldStop?: () => boolean;
    model?: ModelExtractionSetting;
    modelYieldsTo?: () => boolean;
    aliases?: AliasBook;
    extraction?: ExtractionContext;
    /** Extract on worker threads from this many files (default PARALLEL_EXTRACTION_MIN_FILES). */
    parallelFromFiles?: number;
  } = {},
): Promise<GraphUpdateReport> {
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  // Compared in SQL: an edit among 100,000 notes reads the one changed row, not every file's.
  const changed = options.force ? indexedMemoryFiles(db) : (CHANGED_FILES(db).all() as IndexedFile[]);
  const vanished = db.prepare(`SELECT g.path FROM graph_files g WHERE NOT EXISTS (SELECT 1 FROM files f WHERE f.path = g.path AND ${INDEXED_MEMORY_FILE})`).pluck().all() as string[];
  const knownFiles = db.prepare('SELECT count(*) FROM graph_files').pluck().get() as number;
  // Fresh: nothing extracted yet, not even part of a file, so nothing needs forgetting first.
  const fresh = knownFiles === 0 && db.prepare('SELECT 1 FROM graph_entries LIMIT 1').get() === undefined;
  const writer = new GraphWriter(db, options.aliases);
  const extraction = options.extraction ?? { writerName: null };
  const modelFiles = new ModelFiles(db);
  // Whatever the model added to a file goes with the rest of its graph.
  const forget = (path: string) => {
    writer.forget(path);
    modelFiles.drop(path);
  };
  // Many files at once: pairs are recounted from the mentions at the end rather than one by one.
  const rebuild = fresh || options.force === true || changed.length + vanished.length > Math.max(REBUILD_MIN_FILES, knownFiles * REBUILD_SHARE) || Cooccurrence.rebuildPending(db);

  db.transaction(() => {
    if (rebuild) writer.cooccurrence.startRebuild();
    if (fresh) db.prepare('DELETE FROM graph_model_files').run();
    vanished.forEach(forget);
  }).immediate();
  // A first extraction of 50 MB takes minutes: between short transactions the host answers calls.
  // Stopping between them leaves the rest for the next update: their hashes are not recorded yet.
  // A file's entries may span slices: its hash is recorded after its last entry, so a file cut
  // off by a stop is extracted again (its partial evidence forgotten first) by the next update.
  // Pairs are counted in memory and written once per slice, before it commits (unless recounted at the end).
  const writeHeld = () => db.transaction(() => writer.flush(true)).immediate();
  const slice = (work: () => void) =>
    db
      .transaction(() => {
        work();
        writer.flush();
      })
      .immediate();
  // Many files: read and extracted on worker threads, written here in order (the same graph, the rules being pure).
  const threads: { pool: ExtractionPool | null } = { pool: null };
  const extractAll = async (files: readonly IndexedFile[], forgetFirst: ((path: string) => void) | null) => {
    const runSteps = (steps: Iterable<() => void>) => inTimeSlices(steps, slice, (step) => step(), { shouldStop: options.shouldStop });
    if (files.length < (options.parallelFromFiles ?? PARALLEL_EXTRACTION_MIN_FILES)) await runSteps(extractionSteps(db, writer, files, forgetFirst, extraction));
    else await writeExtractedInOrder(db, writer, files, forgetFirst, extraction, (threads.pool ??= new ExtractionPool()), runSteps, options.shouldStop);
  };
  try {
    await extractAll(changed, fresh ? null : forget);
    // The mentions the writer held back, and the files waiting for them, before anything reads them (or after a stop).
    writeHeld();
    // Files naming an organisation by a short name that a new name made ambiguous: once more, without the alias.
    const redo = new Set(writer.redoPaths);
    writer.redoPaths.clear();
    if (redo.size > 0 && !options.shouldStop?.()) {
      await extractAll(
        indexedMemoryFiles(db).filter((f) => redo.has(f.path)),
        forget,
      );
      writeHeld();
      writer.redoPaths.clear();
    }
  } finally {
    await threads.pool?.close();
  }
  if (rebuild) {
    await inTimeSlices(writer.cooccurrence.rebuildSteps(), (work) => db.transaction(work).immediate(), (step) => step(), { shouldStop: options.shouldStop });
    // Stopped before the pairs were recounted: the next update rebuilds, and settles, again.
    if (!Cooccurrence.rebuildPending(db)) await settleAll(db, writer, fresh);
  } else db.transaction(() => settleTouched(db, writer)).immediate();
  let model: ModelExtractionReport | null = null;
  // After a stop, or with pairs still to recount, the rules' graph is not settled: the model waits for the next update.
  if (!options.shouldStop?.() && !Cooccurrence.rebuildPending(db)) {
    const settle = () => settleTouched(db, writer);
    const context = { db, writer, slice, forget, settle, files: () => indexedMemoryFiles(db), extraction, changed: new Set(changed.map((f) => f.path)), shouldStop: options.shouldStop, yieldTo: options.modelYieldsTo };
    model = await runModelPass(context, options.model ?? { enabled: false });
    db.transaction(() => settleTouched(db, writer)).immediate();
  }
  const count = (table: string) => (db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number) ?? 0;
  return { extracted: changed.length, removed: vanished.length, entities: count('graph_entities'), claims: count('graph_claims'), durationMs: Math.round(performance.now() - started), cpuMs: cpuMsSince(cpuStarted), model, aliasNotices: options.aliases?.notices.map((n) => n.message) ?? [] };
}

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return Math.round((used.user + used.system) / 100) / 10;
}

/** Claims (or entities) per step of a whole-graph settle: a step stays within a time slice. */
const SETTLE_RANGE = 2_000;
const SETTLE_CHAINS = 200;

/** Claims without evidence: relations and literals without statements, pairs without tallies. */
const CLAIM_WITHOUT_EVIDENCE = `CASE WHEN predicate = '${MENTIONED_WITH}'
  THEN NOT EXISTS (SELECT 1 FROM graph_cooccurrence t WHERE t.subject_id = graph_claims.subject_id AND t.object_id = graph_claims.object_id)
  ELSE NOT EXISTS (SELECT 1 FROM graph_claim_evidence e WHERE e.claim_id = graph_claims.id) END`;
/** First observed: the earliest date of a claim's evidence (a pair's tallies keep theirs). */
const SET_VALID_FROM = `valid_from = CASE WHEN predicate = '${MENTIONED_WITH}' THEN (SELECT min(t.first_observed) FROM graph_cooccurrence t WHERE t.subject_id = graph_claims.subject_id AND t.object_id = graph_claims.object_id)
  ELSE (SELECT min(g.observed) FROM graph_claim_evidence e JOIN graph_entries g ON g.id = e.entry_id WHERE e.claim_id = graph_claims.id) END`;
const ENTITY_WITHOUT_EVIDENCE = 'NOT EXISTS (SELECT 1 FROM graph_mentions m WHERE m.entity_id = graph_entities.id)';

/**
 * After a first, forced or large extraction (pairs recounted): garbage-collects claims and
 * entities without evidence, recomputes validity, and supersedes, in id ranges between which
 * the host answers calls. A fresh extraction removed nothing and set valid_from as it went, so
 * only supersession is left.
 */
async function settleAll(db: Database.Database, writer: GraphWriter, fresh: boolean): Promise<void> {
  const steps: Array<() => void> = [];
  if (!fresh) {
    const ranges = (table: string): number[] => {
      const max = (db.prepare(`SELECT max(id) FROM ${table}`).pluck().get() as number | null) ?? 0;
      return Array.from({ length: Math.ceil(max / SETTLE_RANGE) }, (_, i) => i * SETTLE_RANGE + 1);
    };
    const orphanClaims = db.prepare(`DELETE FROM graph_claims WHERE id BETWEEN ? AND ? AND ${CLAIM_WITHOUT_EVIDENCE}`);
    const validFrom = db.prepare(`UPDATE graph_claims SET ${SET_VALID_FROM} WHERE id BETWEEN ? AND ?`);
    const orphanEntities = db.prepare(`DELETE FROM graph_entities WHERE id BETWEEN ? AND ? AND ${ENTITY_WITHOUT_EVIDENCE}`);
    for (const lo of ranges('graph_claims')) steps.push(() => (orphanClaims.run(lo, lo + SETTLE_RANGE - 1), validFrom.run(lo, lo + SETTLE_RANGE - 1)));
    for (const lo of ranges('graph_entities')) steps.push(() => orphanEntities.run(lo, lo + SETTLE_RANGE - 1));
  }
  // Every name's type from its votes in all files (the files were read one by one, the first deciding until now).
  const maxEntity = (db.prepare('SELECT max(id) FROM graph_entities').pluck().get() as number | null) ?? 0;
  for (let lo = 1; lo <= maxEntity; lo += SETTLE_RANGE) steps.push(() => retypeEntityRange(db, lo, lo + SETTLE_RANGE - 1));
  // Short organisation names join their one long name once every name is typed; the survivors are typed again with the votes they took in.
  steps.push(() => retypeEntities(db, joinShortOrganisationNames(db, null, writer.aliases, writer.cooccurrence, mergeEntity)));
  await inTimeSlices(steps, (work) => db.transaction(work).immediate(), (step) => step());
  const chains = chainsOf(db.prepare(`SELECT DISTINCT subject_id, predicate, object_id, literal IS NOT NULL FROM graph_claims WHERE ${SUPERSEDING}`).raw().all() as ChainRow[]);
  const chainSteps: Array<() => void> = [];
  for (let i = 0; i < chains.length; i += SETTLE_CHAINS) chainSteps.push(() => supersede(db, chains.slice(i, i + SETTLE_CHAINS)));
  await inTimeSlices(chainSteps, (work) => db.transaction(work).immediate(), (step) => step());
  writer.touchedClaims.clear();
  writer.touchedEntities.clear();
  writer.revoted.clear();
  writer.forgetLookups();
}

/** Garbage-collects the claims and entities an update touched when they lost their evidence, and recomputes their validity. */
function settleTouched(db: Database.Database, writer: GraphWriter): void {
  writer.cooccurrence.settleStale();
  for (const id of writer.cooccurrence.takeShrunkClaims()) writer.touchedClaims.add(id);
  const claimIds = JSON.stringify([...writer.touchedClaims]);
  const entityIds = JSON.stringify([...writer.touchedEntities]);
  // Only the chains of claims that lost or gained evidence can change.
  const chains = chainsOf(db.prepare(`SELECT DISTINCT subject_id, predicate, object_id, literal IS NOT NULL FROM graph_claims WHERE id IN (SELECT value FROM json_each(?)) AND ${SUPERSEDING}`).raw().all(claimIds) as ChainRow[]);
  db.prepare(`DELETE FROM graph_claims WHERE id IN (SELECT value FROM json_each(?)) AND ${CLAIM_WITHOUT_EVIDENCE}`).run(claimIds);
  db.prepare(`DELETE FROM graph_entities WHERE id IN (SELECT value FROM json_each(?)) AND ${ENTITY_WITHOUT_EVIDENCE}`).run(entityIds);
  // A name whose votes changed takes the type all its files' votes give now (the others' votes, and so their types, stand).
  const touched = [...new Set([...writer.touchedEntities, ...writer.revoted])];
  retypeEntities(db, writer.revoted);
  writer.revoted.clear();
  const joined = joinShortOrganisationNames(db, touched, writer.aliases, writer.cooccurrence, mergeEntity);
  retypeEntities(db, joined);
  db.prepare(`UPDATE graph_claims SET ${SET_VALID_FROM} WHERE id IN (SELECT value FROM json_each(?))`).run(claimIds);
  supersede(db, chains);
  // A joined name's claims now belong to its survivor: its chains may end one another.
  if (joined.length > 0) supersede(db, chainsOf(db.prepare(`SELECT DISTINCT subject_id, predicate, object_id, literal IS NOT NULL FROM graph_claims WHERE (subject_id IN (SELECT value FROM json_each(?)) OR object_id IN (SELECT value FROM json_each(?))) AND ${SUPERSEDING}`).raw().all(JSON.stringify(joined), JSON.stringify(joined)) as ChainRow[]));
  writer.touchedClaims.clear();
  writer.touchedEntities.clear();
  // Entities were collected, retyped and joined here, not by the writer.
  writer.forgetLookups();
}

/**
 * Claims that end one another: a subject's literals of one key (`l`), a subject's "where"
 * claims (`w`: runs on, moved to, lives in), a thing's holders (`h`: owns, leads), and the
 * tools a subject uses, which a "replaced X with Y" ends (`u`).
 */
type Chain = [kind: 'l' | 'w' | 'h' | 'u', id: number, predicate: string];
type ChainRow = [subject: number, predicate: string, object: number | null, isLiteral: number];
const FUNCTIONAL_SQL = `(${[...FUNCTIONAL_PREDICATES, 'uses', 'replaced'].map((p) => `'${p}'`).join(',')})`;
const SUPERSEDING = `(literal IS NOT NULL OR predicate IN ${FUNCTIONAL_SQL})`;
const list = (items: readonly string[]) => items.map((p) => `'${p}'`).join(',');

function chainsOf(rows: readonly ChainRow[]): Chain[] {
  const chains = new Map<string, Chain>();
  const add = (c: Chain) => chains.set(c.join('|'), c);
  for (const [subject, predicate, object, isLiteral] of rows) {
    if (isLiteral) add(['l', subject, predicate]);
    else if (WHERE_FAMILY.includes(predicate)) add(['w', subject, '']);
    else if (HOLDER_PREDICATES.includes(predicate) && object !== null) add(['h', object, predicate]);
    else if (predicate === 'uses') add(['u', subject, '']);
    // "Y replaced X": every user of X may have stopped using it.
    else if (predicate === 'replaced' && object !== null) add(['u', -object, '']);
  }
  return [...chains.values()];
}

interface ChainClaim {
  id: number;
  subject_id: number;
  predicate: string;
  object_id: number | null;
  literal: string | null;
  valid_from: string | null;
  valid_until: string | null;
}

/**
 * A newer claim ends an older one of the same chain at the newer one's first date: literals of
 * a key by the same subject, a subject's "where" claims whatever their wording, a thing's
 * owner or lead. Restating the same value ends nothing. A tool a subject uses ends when a
 * "replaced it with Y" is stated and the subject uses Y.
 */
function supersede(db: Database.Database, chains: readonly Chain[]): void {
  if (chains.length === 0) return;
  const setUntil = db.prepare('UPDATE graph_claims SET valid_until = ? WHERE id = ?');
  const select = 'SELECT id, subject_id, predicate, object_id, literal, valid_from, valid_until FROM graph_claims';
  const literals = db.prepare(`${select} WHERE subject_id = ? AND predicate = ? AND literal IS NOT NULL`);
  const where = db.prepare(`${select} WHERE subject_id = ? AND predicate IN (${list(WHERE_FAMILY)}) AND literal IS NULL`);
  const holders = db.prepare(`${select} WHERE object_id = ? AND predicate = ?`);
  const uses = db.prepare(`${select} WHERE subject_id = ? AND predicate = 'uses'`);
  const usersOf = db.prepare("SELECT DISTINCT subject_id FROM graph_claims WHERE object_id = ? AND predicate = 'uses'").pluck();
  const replacements = db.prepare("SELECT subject_id AS by, valid_from FROM graph_claims WHERE object_id = ? AND predicate = 'replaced'");
  const update = (claims: ChainClaim[], untilOf: (c: ChainClaim, i: number, sorted: ChainClaim[]) => string | null) => {
    const sorted = claims.sort((a, b) => (a.valid_from === null ? 1 : 0) - (b.valid_from === null ? 1 : 0) || (a.valid_from ?? '').localeCompare(b.valid_from ?? '') || a.id - b.id);
    sorted.forEach((c, i) => {
      const until = untilOf(c, i, sorted);
      if (until !== c.valid_until) setUntil.run(until, c.id);
    });
  };
  /** The first later claim saying something else ends this one. */
  const byNextDifferent = (value: (c: ChainClaim) => string) => (c: ChainClaim, i: number, sorted: ChainClaim[]) => {
    const next = sorted.slice(i + 1).find((n) => value(n) !== value(c));
    return next ? (next.valid_from ?? c.valid_from) : null;
  };
  // "Lives in Kilimani, Nairobi": a place and the place it lies in are one "where", neither ends the other; so are a
  // provider and the host it runs ("runs on GCP, in `hamia-prod`").
  const nested = db.prepare("SELECT 1 FROM graph_claims WHERE predicate IN ('located_in', 'runs_on') AND ((subject_id = ? AND object_id = ?) OR (subject_id = ? AND object_id = ?)) LIMIT 1").pluck();
  const byNextElsewhere = (c: ChainClaim, i: number, sorted: ChainClaim[]) => {
    const next = sorted.slice(i + 1).find((n) => n.object_id !== c.object_id && nested.get(c.object_id, n.object_id, n.object_id, c.object_id) === undefined);
    return next ? (next.valid_from ?? c.valid_from) : null;
  };
  const usedSubjects = new Set<number>();
  for (const [kind, id, predicate] of chains) {
    if (kind === 'l') update(literals.all(id, predicate) as ChainClaim[], byNextDifferent((c) => c.literal ?? ''));
    else if (kind === 'w') update(where.all(id) as ChainClaim[], byNextElsewhere);
    else if (kind === 'h') update(holders.all(id, predicate) as ChainClaim[], byNextDifferent((c) => String(c.subject_id)));
    else if (id < 0) for (const s of usersOf.all(-id) as number[]) usedSubjects.add(s);
    else usedSubjects.add(id);
  }
  for (const subject of usedSubjects) {
    const claims = uses.all(subject) as ChainClaim[];
    const used = new Map(claims.map((c) => [c.object_id, c]));
    update(claims, (c) => {
      const ends = (replacements.all(c.object_id) as Array<{ by: number; valid_from: string | null }>)
        .filter((r) => used.has(r.by) && r.valid_from !== null && (c.valid_from === null || r.valid_from >= c.valid_from))
        .map((r) => r.valid_from!);
      return ends.length > 0 ? ends.sort()[0]! : null;
    });
  }
}
