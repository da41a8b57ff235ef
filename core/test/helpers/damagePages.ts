import fs from 'node:fs';
import Database from 'better-sqlite3';

/** Overwrites every page (but the header's) of the tables `like` names with garbage, leaving the rest of the file valid. */
export function scribbleOverPages(file: string, like: string): number {
  const db = new Database(file);
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pages = (db.prepare('SELECT pageno FROM dbstat WHERE name LIKE ? AND pageno > 1').all(like) as Array<{ pageno: number }>).map((r) => r.pageno);
  db.close();
  const fd = fs.openSync(file, 'r+');
  for (const page of pages) fs.writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, (page - 1) * pageSize);
  fs.closeSync(fd);
  return pages.length;
}
