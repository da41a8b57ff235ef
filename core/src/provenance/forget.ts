import type Database from 'better-sqlite3';
import type { ForgetReport } from '../contract/index.js';
import { ReverieError } from '../platform/errors.js';
import { lineHash } from './lineHash.js';

const MIN_LINE_CHARS = 20;

/**
 * Removes a session's or a path's indexed text and vectors and records a tombstone so later
 * ingestion or sync does not bring it back. Never deletes Markdown: it reports which
 * workspace files still contain the forgotten text.
 */
export function forget(db: Database.Database, what: { session?: string; path?: string }, dryRun: boolean): ForgetReport {
  let paths: string[];
  let tombstone: ForgetReport['tombstone'];
  if (what.session !== undefined) {
    paths = (db.prepare('SELECT path FROM transcripts WHERE session_id = ?').all(what.session) as Array<{ path: string }>).map((r) => r.path);
    tombstone = { kind: 'session', key: what.session };
  } else {
    const path = what.path!;
    const known = db.prepare('SELECT path FROM files WHERE path = ?').get(path) as { path: string } | undefined;
    if (!known) throw new ReverieError('not-found', `${path} is not in the index; nothing to forget. (Check the path with \`reverie status\`.)`);
    paths = [path];
    tombstone = { kind: 'path', key: path };
  }

  const chunkIds = paths.flatMap((p) => (db.prepare('SELECT id FROM chunks WHERE path = ?').all(p) as Array<{ id: number }>).map((r) => r.id));
  const vectorTables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'vectors_*'").all() as Array<{ name: string }>).map((r) => r.name);
  let vectors = 0;
  for (const table of vectorTables) {
    const count = db.prepare(`SELECT count(*) AS n FROM ${table} WHERE chunk_id IN (SELECT value FROM json_each(?))`).get(JSON.stringify(chunkIds)) as { n: number };
    vectors += count.n;
  }
  const stillInWorkspace = workspaceFilesContaining(db, paths, what.path !== undefined && !what.path.startsWith('sessions/'));

  if (!dryRun) {
    db.transaction(() => {
      for (const p of paths) {
        // Deleting the file row cascades to chunks (and, through triggers, FTS rows and vectors).
        db.prepare('DELETE FROM chunks WHERE path = ?').run(p);
        db.prepare('DELETE FROM files WHERE path = ?').run(p);
      }
      db.prepare('INSERT OR IGNORE INTO tombstones (kind, key, created_at) VALUES (?, ?, ?)').run(tombstone.kind, tombstone.key, new Date().toISOString());
    }).immediate();
  }
  return { dryRun, removed: { files: paths, chunks: chunkIds.length, vectors }, tombstone, stillInWorkspace };
}

/** Workspace memory lines whose normalised text also occurs in the forgotten text. */
function workspaceFilesContaining(db: Database.Database, paths: string[], isWorkspacePath: boolean): ForgetReport['stillInWorkspace'] {
  if (isWorkspacePath) {
    // Forgetting a workspace file removes it from the index only: the file itself stays.
    const rows = db.prepare('SELECT start_line, end_line FROM chunks WHERE path = ? ORDER BY start_line').all(paths[0]) as Array<{ start_line: number; end_line: number }>;
    const last = rows.length ? Math.max(...rows.map((r) => r.end_line)) : 0;
    return [{ path: paths[0]!, lines: last ? Array.from({ length: Math.min(last, 1000) }, (_, i) => i + 1) : [] }];
  }
  const forgotten = new Set<string>();
  for (const p of paths) {
    for (const { text } of db.prepare('SELECT chunk_text(text) AS text FROM chunks WHERE path = ?').iterate(p) as Iterable<{ text: string }>) {
      for (const line of text.split('\n')) {
        const body = line.replace(/^\[[^\]]*\]\s*(user|assistant):\s*/, '');
        if (body.trim().length >= MIN_LINE_CHARS) forgotten.add(lineHash(body));
      }
    }
  }
  if (forgotten.size === 0) return [];
  const found = new Map<string, Set<number>>();
  for (const c of db.prepare("SELECT path, start_line, chunk_text(text) AS text FROM chunks WHERE source = 'memory'").iterate() as Iterable<{ path: string; start_line: number; text: string }>) {
    c.text.split('\n').forEach((line, i) => {
      const stripped = line.replace(/^\s*[-*+]\s+/, '');
      if (stripped.trim().length >= MIN_LINE_CHARS && (forgotten.has(lineHash(stripped)) || forgotten.has(lineHash(line)))) {
        let set = found.get(c.path);
        if (!set) found.set(c.path, (set = new Set()));
        set.add(c.start_line + i);
      }
    });
  }
  return [...found].map(([path, lines]) => ({ path, lines: [...lines].sort((a, b) => a - b) }));
}
