import type Database from 'better-sqlite3';
import { expect } from 'vitest';
import type { MemoryService } from '../../src/engine/memoryService.js';
import { labelKey } from '../../src/graph/labelKey.js';
import { occursIn } from '../../src/graph/modelAnswer.js';

export const indexDb = (s: MemoryService) => (s as unknown as { db: Database.Database }).db;

/** The graph by labels (ids differ between runs): entities with their mention counts, claims with validity. */
export function graphSnapshot(db: Database.Database): { entities: string[]; claims: string[] } {
  const entities = db.prepare("SELECT type || ' ' || key || ' x' || mentions FROM graph_entities ORDER BY 1").pluck().all() as string[];
  const claims = db
    .prepare(
      `SELECT s.key || ' -' || c.predicate || '-> ' || coalesce(o.key, '"' || c.literal || '"') || ' @' || c.confidence || ' ' || coalesce(c.valid_from, '') || '..' || coalesce(c.valid_until, '')
       FROM graph_claims c JOIN graph_entities s ON s.id = c.subject_id LEFT JOIN graph_entities o ON o.id = c.object_id ORDER BY 1`,
    )
    .pluck()
    .all() as string[];
  return { entities, claims };
}

/** Items the model added: each cites an entry whose lines (read from the file now) name it. */
export function modelItems(db: Database.Database, root: string, readLines: (path: string) => string[]): { mentions: number; claims: number } {
  const text = (path: string, start: number, end: number) => labelKey(readLines(path).slice(start - 1, end).join('\n'));
  const mentions = db
    .prepare('SELECT e.label, gp.path, g.start_line, g.end_line FROM graph_mentions m JOIN graph_entities e ON e.id = m.entity_id JOIN graph_entries g ON g.id = m.entry_id JOIN graph_paths gp ON gp.id = g.path_id WHERE m.by_model = 1')
    .all() as Array<{ label: string; path: string; start_line: number; end_line: number }>;
  for (const m of mentions) expect(occursIn(text(m.path, m.start_line, m.end_line), labelKey(m.label)), `${m.label} in ${root}/${m.path}:${m.start_line}`).toBe(true);
  const claims = db
    .prepare(
      `SELECT s.label AS subject, o.label AS object, c.confidence, gp.path, g.start_line, g.end_line FROM graph_claim_evidence v
       JOIN graph_claims c ON c.id = v.claim_id JOIN graph_entities s ON s.id = c.subject_id JOIN graph_entities o ON o.id = c.object_id
       JOIN graph_entries g ON g.id = v.entry_id JOIN graph_paths gp ON gp.id = g.path_id WHERE v.by_model = 1`,
    )
    .all() as Array<{ subject: string; object: string; confidence: number; path: string; start_line: number; end_line: number }>;
  for (const c of claims) {
    const lines = text(c.path, c.start_line, c.end_line);
    expect(occursIn(lines, labelKey(c.subject)) && occursIn(lines, labelKey(c.object)), `${c.subject} → ${c.object} in ${c.path}:${c.start_line}`).toBe(true);
  }
  return { mentions: mentions.length, claims: claims.length };
}

/**
 * Every graph table, row by row in key order: ids included, so the order things were written in
 * counts too. Of `graph_files` only the first three columns: when a file was extracted differs from run to run.
 */
export function graphRows(d: Database.Database): Record<string, unknown[]> {
  const tables = d.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'graph_%' ORDER BY name").pluck().all() as string[];
  const rows: Record<string, unknown[]> = {};
  for (const table of tables) {
    const columns = d.prepare(`SELECT * FROM ${table} LIMIT 0`).columns().length;
    const order = Array.from({ length: columns }, (_, i) => i + 1).join(', ');
    rows[table] = d.prepare(`SELECT * FROM ${table} ORDER BY ${order}`).raw().all().map((row) => (table === 'graph_files' ? (row as unknown[]).slice(0, 3) : row));
  }
  return rows;
}

/** Empties every graph table and its id counters: the next extraction is a first one, with the ids a first one gives. */
export function emptyGraph(d: Database.Database): void {
  const tables = d.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'graph_%'").pluck().all() as string[];
  d.transaction(() => {
    for (const table of tables) d.prepare(`DELETE FROM ${table}`).run();
    d.prepare("DELETE FROM sqlite_sequence WHERE name LIKE 'graph_%'").run();
  })();
}
