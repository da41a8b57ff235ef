import fs from 'node:fs';
import type Database from 'better-sqlite3';
import { FileProvenance } from './entryProvenance.js';
import { extractFile } from './extractFile.js';
import { GraphWriter } from './graphWriter.js';
import { sourceToolOf } from './sourceTool.js';
import { FUNCTIONAL_PREDICATES, type ExtractedEntry } from './types.js';
import { inTimeSlices } from '../common/timeSlices.js';

export interface GraphUpdateReport {
  /** Files (re-)extracted, and files whose evidence was removed because they vanished. */
  extracted: number;
  removed: number;
  entities: number;
  claims: number;
  durationMs: number;
}


interface IndexedFile {
  path: string;
  abs_path: string;
  sha256: string;
  mtime_ms: number;
}

/**
 * Brings the graph up to date with the index: re-extracts memory files whose hash changed,
 * drops the evidence of vanished ones, then deletes what is left without evidence and
 * recomputes validity where claims changed. Transcripts and the diary are never extracted.
 */
export async function updateGraph(db: Database.Database, options: { force?: boolean; shouldStop?: () => boolean } = {}): Promise<GraphUpdateReport> {
  const started = performance.now();
  const files = db.prepare("SELECT path, abs_path, sha256, mtime_ms FROM files WHERE source = 'memory' AND status = 'indexed' AND sha256 IS NOT NULL").all() as IndexedFile[];
  const known = new Map((db.prepare('SELECT path, sha256 FROM graph_files').all() as Array<{ path: string; sha256: string }>).map((r) => [r.path, r.sha256]));
  // Fresh: nothing extracted yet, not even part of a file, so nothing needs forgetting first.
  const fresh = known.size === 0 && db.prepare('SELECT 1 FROM graph_evidence LIMIT 1').get() === undefined;
  const present = new Set(files.map((f) => f.path));
  const changed = files.filter((f) => options.force || known.get(f.path) !== f.sha256);
  const vanished = [...known.keys()].filter((p) => !present.has(p));
  const writer = new GraphWriter(db);
  const forget = forgetter(db, writer);

  db.transaction(() => vanished.forEach(forget)).immediate();
  // A first extraction of 50 MB takes minutes: between short transactions the host answers calls.
  // Stopping between them leaves the rest for the next update: their hashes are not recorded yet.
  // A file's entries may span slices: its hash is recorded after its last entry, so a file cut
  // off by a stop is extracted again (its partial evidence forgotten first) by the next update.
  await inTimeSlices(extractionSteps(db, writer, changed, fresh ? null : forget), (work) => db.transaction(work).immediate(), (step) => step(), { shouldStop: options.shouldStop });
  if (fresh || options.force === true) await settleAll(db, writer, fresh);
  else db.transaction(() => settleTouched(db, writer)).immediate();
  const count = (table: string) => (db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number) ?? 0;
  return { extracted: changed.length, removed: vanished.length, entities: count('graph_entities'), claims: count('graph_claims'), durationMs: Math.round(performance.now() - started) };
}

function forgetter(db: Database.Database, writer: GraphWriter): (path: string) => void {
  const touched = db.prepare('SELECT entity_id, claim_id FROM graph_evidence WHERE path = ?');
  const dropEvidence = db.prepare('DELETE FROM graph_evidence WHERE path = ?');
  const dropAliases = db.prepare('DELETE FROM graph_aliases WHERE path = ?');
  const dropFile = db.prepare('DELETE FROM graph_files WHERE path = ?');
  return (path) => {
    for (const row of touched.iterate(path) as Iterable<{ entity_id: number | null; claim_id: number | null }>) {
      if (row.entity_id !== null) writer.touchedEntities.add(row.entity_id);
      if (row.claim_id !== null) writer.touchedClaims.add(row.claim_id);
    }
    dropEvidence.run(path);
    dropAliases.run(path);
    dropFile.run(path);
  };
}

/** One step per file read and extracted, per entry written, and per file recorded as done. */
function* extractionSteps(db: Database.Database, writer: GraphWriter, files: readonly IndexedFile[], forget: ((path: string) => void) | null): Generator<() => void> {
  const recordFile = db.prepare('INSERT OR REPLACE INTO graph_files (path, sha256, entries, extracted_at) VALUES (?, ?, ?, ?)');
  for (const file of files) {
    let entries: ExtractedEntry[] = [];
    let provenance: FileProvenance | null = null;
    let readable = true;
    yield () => {
      forget?.(file.path); // evidence of an earlier version, or of a cut-off extraction
      let text: string;
      try {
        text = fs.readFileSync(file.abs_path, 'utf8');
      } catch {
        readable = false; // vanished since indexing: the next sync removes it from the index, and then from here
        return;
      }
      entries = extractFile(file.path, text, new Date(file.mtime_ms).toISOString().slice(0, 10));
      provenance = new FileProvenance(db, file.path, text.split(/\r?\n/));
    };
    if (!readable) continue;
    const tool = sourceToolOf(file.path);
    for (const entry of entries) yield () => writer.writeEntry(entry, { path: file.path, tool, ...provenance!.of(entry.startLine, entry.endLine) });
    yield () => recordFile.run(file.path, file.sha256, entries.length, Date.now());
  }
}

/** Claims (or entities) per step of a whole-graph settle: a step stays within a time slice. */
const SETTLE_RANGE = 2_000;
const SETTLE_SUBJECTS = 200;

/**
 * After a first or forced extraction: garbage-collects claims and entities without evidence,
 * recomputes validity, and supersedes, in id ranges between which the host answers calls (at
 * 850k claims this is ~10 s of work). A fresh extraction removed nothing and set valid_from as
 * it went, so only supersession is left.
 */
async function settleAll(db: Database.Database, writer: GraphWriter, fresh: boolean): Promise<void> {
  const steps: Array<() => void> = [];
  if (!fresh) {
    const ranges = (table: string): number[] => {
      const max = (db.prepare(`SELECT max(id) FROM ${table}`).pluck().get() as number | null) ?? 0;
      return Array.from({ length: Math.ceil(max / SETTLE_RANGE) }, (_, i) => i * SETTLE_RANGE + 1);
    };
    const orphanClaims = db.prepare('DELETE FROM graph_claims WHERE id BETWEEN ? AND ? AND NOT EXISTS (SELECT 1 FROM graph_evidence e WHERE e.claim_id = graph_claims.id)');
    const validFrom = db.prepare('UPDATE graph_claims SET valid_from = (SELECT min(observed) FROM graph_evidence e WHERE e.claim_id = graph_claims.id) WHERE id BETWEEN ? AND ?');
    const orphanEntities = db.prepare('DELETE FROM graph_entities WHERE id BETWEEN ? AND ? AND NOT EXISTS (SELECT 1 FROM graph_evidence e WHERE e.entity_id = graph_entities.id)');
    for (const lo of ranges('graph_claims')) steps.push(() => (orphanClaims.run(lo, lo + SETTLE_RANGE - 1), validFrom.run(lo, lo + SETTLE_RANGE - 1)));
    for (const lo of ranges('graph_entities')) steps.push(() => orphanEntities.run(lo, lo + SETTLE_RANGE - 1));
  }
  const subjects = db.prepare(`SELECT DISTINCT subject_id FROM graph_claims WHERE literal IS NOT NULL OR predicate IN (${[...FUNCTIONAL_PREDICATES].map((p) => `'${p}'`).join(',')})`).pluck().all() as number[];
  for (let i = 0; i < subjects.length; i += SETTLE_SUBJECTS) steps.push(() => supersede(db, subjects.slice(i, i + SETTLE_SUBJECTS)));
  await inTimeSlices(steps, (work) => db.transaction(work).immediate(), (step) => step());
  writer.touchedClaims.clear();
  writer.touchedEntities.clear();
}

/** Garbage-collects the claims and entities an update touched when they lost their evidence, and recomputes their validity. */
function settleTouched(db: Database.Database, writer: GraphWriter): void {
  const claimIds = JSON.stringify([...writer.touchedClaims]);
  const entityIds = JSON.stringify([...writer.touchedEntities]);
  const subjects = db.prepare('SELECT DISTINCT subject_id FROM graph_claims WHERE id IN (SELECT value FROM json_each(?))').pluck().all(claimIds) as number[];
  db.prepare('DELETE FROM graph_claims WHERE id IN (SELECT value FROM json_each(?)) AND NOT EXISTS (SELECT 1 FROM graph_evidence e WHERE e.claim_id = graph_claims.id)').run(claimIds);
  db.prepare('DELETE FROM graph_entities WHERE id IN (SELECT value FROM json_each(?)) AND NOT EXISTS (SELECT 1 FROM graph_evidence e WHERE e.entity_id = graph_entities.id)').run(entityIds);
  db.prepare('UPDATE graph_claims SET valid_from = (SELECT min(observed) FROM graph_evidence e WHERE e.claim_id = graph_claims.id) WHERE id IN (SELECT value FROM json_each(?))').run(claimIds);
  supersede(db, subjects);
  writer.touchedClaims.clear();
  writer.touchedEntities.clear();
}

/**
 * For functional predicates (moved_to, lives_in, works_at, runs_on) and `Key: value`
 * literals, a newer claim about the same subject ends the older one: by observed date, then
 * by first-seen order.
 */
function supersede(db: Database.Database, subjects: readonly number[]): void {
  const claims = db.prepare(
    `SELECT id, subject_id, predicate, valid_from FROM graph_claims
     WHERE subject_id IN (SELECT value FROM json_each(?)) AND (literal IS NOT NULL OR predicate IN (SELECT value FROM json_each(?)))
     ORDER BY subject_id, predicate, valid_from IS NULL, valid_from, id`,
  );
  const setUntil = db.prepare('UPDATE graph_claims SET valid_until = ? WHERE id = ?');
  const rows = claims.all(JSON.stringify(subjects), JSON.stringify([...FUNCTIONAL_PREDICATES])) as Array<{ id: number; subject_id: number; predicate: string; valid_from: string | null }>;
  rows.forEach((row, i) => {
    const next = rows[i + 1];
    const superseded = next && next.subject_id === row.subject_id && next.predicate === row.predicate;
    setUntil.run(superseded ? (next.valid_from ?? row.valid_from) : null, row.id);
  });
}
