/**
 * Bytes of every table of an SQLite index, from the `dbstat` virtual table (compiled into
 * better-sqlite3's SQLite), with page counts as the fallback. Indexes count towards their
 * table; shadow tables of FTS5 and sqlite-vec towards their virtual table.
 */
import Database from 'better-sqlite3';
import { log } from './stats.js';

export interface IndexBytes {
  /** Whole file (after a checkpoint, so the WAL is empty). */
  file_bytes: number;
  /** Bytes per table (its indexes and shadow tables included), largest first. */
  tables: Record<string, number>;
  /** Bytes per b-tree (table or index) as dbstat names it, largest first. */
  btrees: Record<string, number>;
  /** `dbstat` or `page_count` (no per-table split). */
  method: 'dbstat' | 'page_count';
}

/** The table a b-tree belongs to: `chunks_fts_data` → `chunks_fts`, `chunks_by_path` → `chunks`. */
export function owningTable(name: string, tableOf: ReadonlyMap<string, string>, virtualTables: readonly string[]): string {
  // Longest virtual-table prefix first: `vec_chunks_x_rowids` belongs to `vec_chunks_x`, not `vec_chunks`.
  const shadowOf = [...virtualTables].sort((a, b) => b.length - a.length).find((vt) => name.startsWith(`${vt}_`));
  if (shadowOf) return shadowOf;
  const table = tableOf.get(name) ?? name;
  return virtualTables.find((vt) => table.startsWith(`${vt}_`)) ?? table;
}

function sortedRecord(entries: Iterable<[string, number]>): Record<string, number> {
  return Object.fromEntries([...entries].sort((a, b) => b[1] - a[1]));
}

/** Opens the index read-only (a host may hold it open) and measures it. */
export function measureIndexBytes(indexPath: string): IndexBytes {
  const db = new Database(indexPath, { readonly: true, fileMustExist: true });
  try {
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const pageCount = db.pragma('page_count', { simple: true }) as number;
    const fileBytes = pageSize * pageCount;
    const schema = db.prepare("SELECT name, tbl_name AS tbl, type, sql FROM sqlite_master").all() as Array<{ name: string; tbl: string; type: string; sql: string | null }>;
    const tableOf = new Map(schema.map((s) => [s.name, s.tbl]));
    const virtualTables = schema.filter((s) => s.type === 'table' && /^CREATE VIRTUAL TABLE/i.test(s.sql ?? '')).map((s) => s.name);
    let rows: Array<{ name: string; bytes: number }>;
    try {
      rows = db.prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name').all() as Array<{ name: string; bytes: number }>;
    } catch (error) {
      log(`  index bytes: dbstat is not available (${(error as Error).message}); the file size only`);
      return { file_bytes: fileBytes, tables: {}, btrees: {}, method: 'page_count' };
    }
    const tables = new Map<string, number>();
    for (const r of rows) {
      const owner = owningTable(r.name, tableOf, virtualTables);
      tables.set(owner, (tables.get(owner) ?? 0) + r.bytes);
    }
    return { file_bytes: fileBytes, tables: sortedRecord(tables), btrees: sortedRecord(rows.map((r) => [r.name, r.bytes])), method: 'dbstat' };
  } finally {
    db.close();
  }
}
