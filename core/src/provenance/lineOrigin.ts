import type Database from 'better-sqlite3';
import type { OriginClass, SessionKind } from '../contract/index.js';
import { leastTrusted } from '../contract/index.js';
import { lineHash } from './lineHash.js';

export interface EntryOrigin {
  origin: OriginClass;
  sessionKind: SessionKind | null;
}

/**
 * The trust class of an entry's lines, from the columns code wrote (never from the text):
 * a transcript's per-line origins and its session kind; for workspace files, the lines
 * Reverie wrote for someone (agents, imports, dreaming), the person's otherwise.
 */
export function entryOrigin(indexDb: Database.Database, path: string, source: string, startLine: number, endLine: number, lines: readonly string[]): EntryOrigin {
  if (source === 'sessions') {
    const transcript = indexDb.prepare('SELECT session_kind FROM transcripts WHERE path = ?').get(path) as { session_kind: SessionKind } | undefined;
    const origins = indexDb.prepare('SELECT origin FROM transcript_lines WHERE path = ? AND line BETWEEN ? AND ?').all(path, startLine, endLine) as Array<{ origin: OriginClass }>;
    // A transcript line without a mapped origin is not known to be the person's.
    return { origin: leastTrusted(origins.map((o) => o.origin), 'untrusted'), sessionKind: transcript?.session_kind ?? 'unknown' };
  }
  const lookup = indexDb.prepare('SELECT origin FROM line_provenance WHERE path = ? AND line_hash = ?');
  const classes: OriginClass[] = [];
  for (const line of lines) {
    if (line.trim() === '') continue;
    const row = lookup.get(path, lineHash(line)) as { origin: OriginClass } | undefined;
    classes.push(row?.origin ?? 'owner');
  }
  return { origin: leastTrusted(classes, 'owner'), sessionKind: null };
}
