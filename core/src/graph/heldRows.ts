import type Database from 'better-sqlite3';

/**
 * Rows per insert statement: a statement of its own cost a row more than its insert (a first
 * extraction writes ~40 entries and ~90 mentions per note); a few hundred rows of JSON per
 * statement keep the text it parses small.
 */
export const ROWS_PER_STATEMENT = 500;

/**
 * An insert of many rows in one statement: `columns` are filled, in order, from each row's
 * values (`expressions` may wrap them, `$` standing for the value). jsonb_each hands each row
 * over as binary JSON, which `->>` reads without parsing the row's text once per column.
 */
export function rowsInsert(db: Database.Database, table: string, columns: readonly string[], expressions: Readonly<Record<string, string>> = {}): Database.Statement<[string]> {
  const values = columns.map((column, i) => (expressions[column] ?? '$').replaceAll('$', `value->>${i}`));
  return db.prepare<[string]>(`INSERT INTO ${table} (${columns.join(', ')}) SELECT ${values.join(', ')} FROM jsonb_each(CAST(? AS TEXT))`);
}

/** Runs `insert` (from rowsInsert) over `rows` in order, ROWS_PER_STATEMENT at a time. */
export function insertRows(insert: Database.Statement<[string]>, rows: ReadonlyArray<readonly unknown[]>): void {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) insert.run(JSON.stringify(rows.slice(i, i + ROWS_PER_STATEMENT)));
}

/**
 * Rows of a table with an INTEGER PRIMARY KEY held back to be inserted together, each given now
 * the id SQLite would give it inserted alone (one past the largest, AUTOINCREMENT aside), so
 * the table ends up row for row as one-row inserts leave it. Nothing else may insert into or
 * delete from the table while rows are held: `write` first.
 */
export class HeldRows {
  private readonly rows: unknown[][] = [];
  /** The id of the next row; read from the table when the first row after a write is added. */
  private nextId: number | null = null;
  private readonly insert: Database.Statement<[string]>;
  private readonly largestId: Database.Statement;

  constructor(db: Database.Database, table: string, columns: readonly string[], expressions: Readonly<Record<string, string>> = {}) {
    this.insert = rowsInsert(db, table, ['id', ...columns], expressions);
    this.largestId = db.prepare(`SELECT max(id) FROM ${table}`).pluck();
  }

  get size(): number {
    return this.rows.length;
  }

  /** Holds a row (its values in the order of `columns`) and returns its id. */
  add(values: readonly unknown[]): number {
    this.nextId ??= ((this.largestId.get() as number | null) ?? 0) + 1;
    const id = this.nextId++;
    this.rows.push([id, ...values]);
    return id;
  }

  /** Inserts the held rows, in the order they were added. */
  write(): void {
    // Rows may be deleted once these are in (a forgotten file): the next id is read again then.
    this.nextId = null;
    if (this.rows.length === 0) return;
    insertRows(this.insert, this.rows);
    this.rows.length = 0;
  }
}
