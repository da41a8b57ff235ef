import type Database from 'better-sqlite3';

export interface ModelFileRow {
  path: string;
  sha256: string;
  model: string;
  items: number;
}

/**
 * `graph_model_files`: which version of which memory file the chat model has read, with which
 * model, and how many of its items were kept. A file's row goes when its entries are extracted
 * again (that drops the model's items with the rest); a row with items means the file's
 * entries in the graph carry model items.
 */
export class ModelFiles {
  private readonly stmts;

  constructor(db: Database.Database) {
    this.stmts = {
      all: db.prepare('SELECT path, sha256, model, items FROM graph_model_files'),
      record: db.prepare('INSERT OR REPLACE INTO graph_model_files (path, sha256, model, items, extracted_at) VALUES (?, ?, ?, ?, ?)'),
      drop: db.prepare('DELETE FROM graph_model_files WHERE path = ?'),
      extractedSha: db.prepare('SELECT sha256 FROM graph_files WHERE path = ?').pluck(),
    };
  }

  all(): ModelFileRow[] {
    return this.stmts.all.all() as ModelFileRow[];
  }

  /** Read by `model` at version `sha256`, with `items` kept. */
  record(path: string, sha256: string, model: string, items: number): void {
    this.stmts.record.run(path, sha256, model, items, Date.now());
  }

  drop(path: string): void {
    this.stmts.drop.run(path);
  }

  /** The version of a file the graph holds (null: not extracted, or cut off mid-file). */
  extractedSha(path: string): string | null {
    return (this.stmts.extractedSha.get(path) as string | undefined) ?? null;
  }
}
