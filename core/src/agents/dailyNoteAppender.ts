import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { OperationOutput } from '../contract/index.js';
import { ReverieError } from '../platform/errors.js';
import { sha256Hex } from '../platform/hash.js';
import { localDay } from '../platform/localDay.js';
import { normalizeEntryText } from '../workspace/markdownEntries.js';
import { withWriteLock } from '../platform/writeLock.js';
import { inertMarkup } from './inertMarkup.js';
import { formatEntryRef } from './entries/entryRef.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('agents/notes');

/** The same note stored again within this window is recognised and not appended twice. */
export const DUPLICATE_WINDOW_DAYS = 7;
const DAY_MS = 86_400_000;

export interface NoteToStore {
  text: string;
  kind: 'note' | 'fact' | 'preference';
  project?: string;
  /** Explicit markers (agents only through these fields): written marked as set by the agent. */
  importance?: number;
  triggers?: string[];
  /** The agent's name; null when the person stores it (CLI, app). */
  agent: string | null;
}

/**
 * Appends notes to today's daily note (`memory/YYYY-MM-DD.md`, local date): one writer at a
 * time (a queue in this process, a lock file across processes), whole lines, flushed to disk.
 * Never touches MEMORY.md or USER.md. An agent's note keeps every character it sent, but an
 * HTML comment inside it is escaped (`inertMarkup`): it cannot set importance, triggers or any
 * other metadata Reverie reads from comments.
 */
export class DailyNoteAppender {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly workspaceRoot: string,
    private readonly agentDb: Database.Database,
    private readonly lockFile: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** The answer for the caller, and the exact line appended (null for a duplicate) for its provenance record. */
  append(note: NoteToStore): Promise<{ result: OperationOutput<'memory.store'>; written: string | null }> {
    const run = this.queue.then(() => withWriteLock(this.lockFile, () => this.appendLocked(note)));
    // The caller has the error through `run`; the queue only has to move on.
    this.queue = run.catch((error: unknown) => log.debug('A note could not be stored; the next one goes ahead', { error }));
    return run;
  }

  private appendLocked(note: NoteToStore): { result: OperationOutput<'memory.store'>; written: string | null } {
    const at = this.now();
    const spaced = note.text.replace(/\s+/g, ' ').trim();
    // An agent's hidden markers stay visible in its note but are never read as metadata.
    const words = note.agent === null ? spaced : inertMarkup(spaced);
    const hash = sha256Hex(normalizeEntryText(words)).slice(0, 32);
    const earlier = this.agentDb
      .prepare('SELECT path, line FROM stored_notes WHERE content_hash = ? AND stored_at >= ? ORDER BY stored_at DESC LIMIT 1')
      .get(hash, at - DUPLICATE_WINDOW_DAYS * DAY_MS) as { path: string; line: number } | undefined;
    const found = earlier ? this.stillThere(earlier.path, earlier.line, words) : null;
    if (earlier && found) {
      return { result: { path: earlier.path, line: found.line, ref: formatEntryRef(earlier.path, found.line, found.text), stored: false, duplicateOf: { path: earlier.path, line: found.line } }, written: null };
    }

    const rel = `memory/${localDay(at)}.md`;
    const abs = path.join(this.workspaceRoot, 'memory', `${localDay(at)}.md`);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    if (fs.existsSync(abs) && fs.lstatSync(abs).isSymbolicLink()) throw new ReverieError('forbidden', `${rel} is a symbolic link; Reverie does not append through it.`);
    const current = fs.existsSync(abs) ? fs.readFileSync(abs, 'utf8') : null;
    const annotations = [
      note.kind !== 'note' ? `<!-- kind: ${note.kind} -->` : null,
      note.project ? `<!-- project: ${note.project.replace(/-->/g, '')} -->` : null,
      ...explicitMarkers(note),
    ].filter(Boolean);
    const line = ['-', words, ...annotations].join(' ');
    const prefix = current === null ? `# ${localDay(at)}\n\n` : current.length > 0 && !current.endsWith('\n') ? '\n' : '';
    const existingLines = !current ? 0 : current.split('\n').length - (current.endsWith('\n') ? 1 : 0);
    const lineNo = current === null ? 3 : existingLines + 1;
    // One write of whole lines with O_APPEND, then fsync: a concurrent reader sees all of it or none.
    const fd = fs.openSync(abs, 'a', 0o644);
    try {
      fs.writeSync(fd, `${prefix}${line}\n`);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    this.agentDb.prepare('INSERT OR REPLACE INTO stored_notes (content_hash, path, line, agent, stored_at) VALUES (?, ?, ?, ?, ?)').run(hash, rel, lineNo, note.agent, at);
    return { result: { path: rel, line: lineNo, ref: formatEntryRef(rel, lineNo, line), stored: true, duplicateOf: null }, written: line };
  }

  /** Where the earlier copy is now (a person may have moved or deleted it: then storing again is right). */
  private stillThere(rel: string, line: number, words: string): { line: number; text: string } | null {
    try {
      const lines = fs.readFileSync(path.join(this.workspaceRoot, ...rel.split('/')), 'utf8').split('\n').map((l) => l.replace(/\r$/, ''));
      const target = normalizeEntryText(words);
      if (normalizeEntryText(lines[line - 1] ?? '') === target) return { line, text: lines[line - 1]! };
      const index = lines.findIndex((l) => normalizeEntryText(l) === target);
      return index === -1 ? null : { line: index + 1, text: lines[index]! };
    } catch (error) {
      // The daily note is gone or unreadable: the earlier copy is no longer there, so the note is stored again.
      log.debug('An earlier daily note could not be read', { path: rel, error });
      return null;
    }
  }
}

/**
 * Importance and triggers an agent asked for, written as markers with `set-by` naming it. The
 * line is recorded as the agent's, so search and context matching ignore its markers; once the
 * person edits the line (removing `set-by`, say) it is theirs and the markers count.
 */
function explicitMarkers(note: NoteToStore): string[] {
  if (note.importance === undefined && !note.triggers?.length) return [];
  const setBy = note.agent === null ? [] : [`<!-- set-by: agent ${note.agent} -->`];
  return [
    ...(note.importance !== undefined ? [`<!-- importance: ${note.importance} -->`] : []),
    ...(note.triggers?.length ? [`<!-- trigger: ${note.triggers.join(', ')} -->`] : []),
    ...setBy,
  ];
}
