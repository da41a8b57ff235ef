import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { OperationOutput, OriginClass, RecentEntry } from '../../contract/index.js';
import { localDay } from '../../platform/localDay.js';
import { lineHash } from '../../provenance/lineHash.js';
import { sameProject } from '../context/activeEntries.js';
import type { EntryHistory } from './entryHistory.js';
import { formatEntryRef } from './entryRef.js';
import { isEntryLine } from './entryLine.js';
import { processLogger } from '../../platform/log/processLog.js';

const log = processLogger('agents/entries');

const DAILY_NOTE = /^(\d{4}-\d{2}-\d{2})\.md$/;
const PROJECT = /<!--\s*project:\s*([^>]*?)\s*-->/i;
const CURATED = ['MEMORY.md', 'USER.md', 'DREAMS.md'];
const DAY_MS = 86_400_000;

export interface RecentOptions {
  workspaceRoot: string;
  indexDb: Database.Database;
  history: EntryHistory;
  days: number;
  project?: string;
  limit: number;
  /** When the caller last asked (null: never, or not an agent). */
  since: string | null;
  now: number;
}

/**
 * The newest entries of the daily notes (`memory/YYYY-MM-DD.md`, by the day in the name), each
 * with its ref, origin and writer; and what changed since the caller's last look: agents' edits
 * and the workspace files modified after it.
 */
export function recentEntries(o: RecentOptions): OperationOutput<'memory.recent'> {
  const firstDay = localDay(o.now - (o.days - 1) * DAY_MS);
  const memoryDir = path.join(o.workspaceRoot, 'memory');
  const notes = listDailyNotes(memoryDir).filter((day) => day >= firstDay).sort().reverse();
  const provenance = o.indexDb.prepare('SELECT origin, actor FROM line_provenance WHERE path = ? AND line_hash = ?');
  const entries: RecentEntry[] = [];
  for (const day of notes) {
    const rel = `memory/${day}.md`;
    const lines = readLines(path.join(memoryDir, `${day}.md`));
    for (let i = lines.length - 1; i >= 0 && entries.length < o.limit; i--) {
      const text = lines[i]!;
      if (!isEntryLine(text)) continue;
      const project = PROJECT.exec(text)?.[1]?.trim() || null;
      if (o.project !== undefined && !sameProject(project, o.project)) continue;
      const row = provenance.get(rel, lineHash(text)) as { origin: OriginClass; actor: string | null } | undefined;
      entries.push({ ref: formatEntryRef(rel, i + 1, text), path: rel, line: i + 1, text, origin: row?.origin ?? 'owner', agent: row?.origin === 'agent' ? row.actor : null, project });
    }
    if (entries.length >= o.limit) break;
  }
  const after = o.since ?? new Date(o.now - o.days * DAY_MS).toISOString();
  const changedFiles = [...CURATED, ...notes.map((d) => `memory/${d}.md`)]
    .flatMap((rel) => {
      const mtime = modifiedAt(path.join(o.workspaceRoot, ...rel.split('/')));
      return mtime !== null && mtime > after ? [{ path: rel, modifiedAt: mtime }] : [];
    })
    .sort((a, b) => b.modifiedAt.localeCompare(a.modifiedAt));
  return { entries, since: o.since, changes: o.history.since(after), changedFiles };
}

function listDailyNotes(dir: string): string[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isFile() && DAILY_NOTE.test(e.name) ? [DAILY_NOTE.exec(e.name)![1]!] : []));
  } catch (error) {
    log.debug('no memory/ folder yet: nothing recent', { error });
    return [];
  }
}

function readLines(file: string): string[] {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').map((l) => l.replace(/\r$/, ''));
  } catch (error) {
    log.debug('removed between the listing and the read', { error });
    return [];
  }
}

function modifiedAt(file: string): string | null {
  try {
    return fs.statSync(file).mtime.toISOString();
  } catch (error) {
    log.debug('A memory file is gone: it did not change', { error });
    return null;
  }
}
