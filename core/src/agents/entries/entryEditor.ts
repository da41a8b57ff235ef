import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { EditProposal, OperationOutput, OriginClass } from '../../contract/index.js';
import { replaceFileChecked } from '../../platform/checkedReplace.js';
import { ReverieError } from '../../platform/errors.js';
import { sha256Hex } from '../../platform/hash.js';
import { lineHash } from '../../provenance/lineHash.js';
import { recordWrittenLines } from '../../provenance/recordWrites.js';
import type { WorkspaceFiles } from '../../workspace/workspaceFiles.js';
import { inertMarkup } from '../inertMarkup.js';
import { formatEntryRef, lineVersion, parseEntryRef } from './entryRef.js';
import { isEntryLine, rewriteEntryLine } from './entryLine.js';
import { EntryHistory } from './entryHistory.js';

/** The person's curated files: an agent never rewrites them, whoever wrote the line. */
const CURATED = new Set(['MEMORY.md', 'USER.md', 'DREAMS.md']);
/** A write that met another writer re-reads and tries again this many times before giving up. */
const ATTEMPTS = 3;

export interface EntryEditorOptions {
  files: WorkspaceFiles;
  indexDb: () => Database.Database;
  agentDb: Database.Database;
  lockFile: string;
  onDidWriteFiles(paths: string[]): void;
  now?: () => number;
}

interface LocatedEntry {
  path: string;
  abs: string;
  bytes: Buffer;
  lines: string[];
  /** 0-based index into `lines`. */
  index: number;
  text: string;
  origin: OriginClass;
  actor: string | null;
}

/**
 * Agents correct and remove entries. An agent's own lines (recorded in `line_provenance`) are
 * rewritten in place through `replaceFileChecked` (hash-checked under the workspace's Markdown
 * lock, atomic rename) with their before/after kept in `entry_history`; a line the person wrote,
 * or any line of MEMORY.md / USER.md, only ever becomes a proposal the person reviews.
 */
export class EntryEditor {
  readonly history: EntryHistory;

  constructor(private readonly options: EntryEditorOptions) {
    this.history = new EntryHistory(options.agentDb, options.now ?? Date.now);
  }

  update(ref: string, text: string, agent: string): OperationOutput<'memory.update'> {
    const words = inertMarkup(text.replace(/\s+/g, ' ').trim());
    for (let attempt = 1; ; attempt++) {
      const entry = this.locate(ref);
      if (CURATED.has(entry.path) || entry.origin === 'owner') return this.propose(entry, words, agent);
      if (entry.origin !== 'agent') {
        throw new ReverieError('forbidden', `${entry.path} line ${entry.index + 1} was written by ${entry.origin === 'system' ? 'dreaming' : 'an import'}, not by an agent; only the person edits it.`);
      }
      const next = rewriteEntryLine(entry.text, words);
      if (next === entry.text) return { outcome: 'updated', path: entry.path, line: entry.index + 1, ref: formatEntryRef(entry.path, entry.index + 1, next), proposalId: null };
      if (this.replaceLine(entry, next)) {
        recordWrittenLines(this.options.indexDb(), entry.path, [next], { origin: 'agent', via: 'agent', actor: agent, detail: 'update' });
        this.history.record({ agent, action: 'updated', path: entry.path, line: entry.index + 1, before: entry.text, after: next });
        this.options.onDidWriteFiles([entry.path]);
        return { outcome: 'updated', path: entry.path, line: entry.index + 1, ref: formatEntryRef(entry.path, entry.index + 1, next), proposalId: null };
      }
      if (attempt >= ATTEMPTS) throw busy(entry.path);
    }
  }

  forget(ref: string, agent: string): OperationOutput<'memory.forget'> {
    for (let attempt = 1; ; attempt++) {
      const entry = this.locate(ref);
      if (entry.origin !== 'agent' || CURATED.has(entry.path)) {
        throw new ReverieError('forbidden', `${entry.path} line ${entry.index + 1} is not an agent's note${entry.origin === 'owner' ? ' (the person wrote it)' : ''}; agents forget only their own notes.`);
      }
      if (entry.actor !== agent) throw new ReverieError('forbidden', `${entry.path} line ${entry.index + 1} was written by agent "${entry.actor ?? 'unknown'}"; an agent forgets only its own notes.`);
      if (this.replaceLine(entry, null)) {
        this.history.record({ agent, action: 'forgotten', path: entry.path, line: entry.index + 1, before: entry.text, after: null });
        this.options.onDidWriteFiles([entry.path]);
        return { path: entry.path, line: entry.index + 1, text: entry.text };
      }
      if (attempt >= ATTEMPTS) throw busy(entry.path);
    }
  }

  listProposals(includeDecided: boolean): EditProposal[] {
    const rows = this.options.agentDb
      .prepare(`SELECT * FROM edit_proposals ${includeDecided ? '' : "WHERE status = 'open'"} ORDER BY status = 'open' DESC, created_at DESC LIMIT 500`)
      .all() as ProposalRow[];
    return rows.map(toProposal);
  }

  /** The person's decision. Accepting rewrites their line only if it still reads as the agent saw it. */
  decide(id: string, decision: 'accept' | 'reject'): EditProposal {
    const row = this.options.agentDb.prepare('SELECT * FROM edit_proposals WHERE id = ?').get(id) as ProposalRow | undefined;
    if (!row) throw new ReverieError('not-found', `No proposal "${id}".`);
    if (row.status !== 'open') throw new ReverieError('conflict', `Proposal ${id} was ${row.status} already.`);
    const at = new Date((this.options.now ?? Date.now)()).toISOString();
    const settle = (status: EditProposal['status'], note: string | null) => {
      this.options.agentDb.prepare('UPDATE edit_proposals SET status = ?, decided_at = ?, note = ? WHERE id = ?').run(status, at, note, id);
      return toProposal(this.options.agentDb.prepare('SELECT * FROM edit_proposals WHERE id = ?').get(id) as ProposalRow);
    };
    if (decision === 'reject') {
      this.history.record({ agent: row.agent, action: 'rejected', path: row.path, line: row.line, before: row.before, after: row.after });
      return settle('rejected', null);
    }
    for (let attempt = 1; ; attempt++) {
      let entry: LocatedEntry;
      try {
        entry = this.locate(formatEntryRef(row.path, row.line, row.before));
      } catch (error) {
        if (!(error instanceof ReverieError) || (error.code !== 'not-found' && error.code !== 'conflict')) throw error;
        return settle('stale', `The line changed since the agent proposed this, so it was not rewritten: ${error.message}`);
      }
      const next = rewriteEntryLine(entry.text, row.after);
      if (this.replaceLine(entry, next)) {
        this.history.record({ agent: row.agent, action: 'accepted', path: row.path, line: entry.index + 1, before: entry.text, after: next });
        this.options.onDidWriteFiles([row.path]);
        return settle('accepted', null);
      }
      if (attempt >= ATTEMPTS) throw busy(row.path);
    }
  }

  private propose(entry: LocatedEntry, words: string, agent: string): OperationOutput<'memory.update'> {
    const id = `proposal:${randomBytes(6).toString('hex')}`;
    const at = new Date((this.options.now ?? Date.now)()).toISOString();
    this.options.agentDb
      .prepare("INSERT INTO edit_proposals (id, agent, path, line, before, after, created_at, status) VALUES (?, ?, ?, ?, ?, ?, ?, 'open')")
      .run(id, agent, entry.path, entry.index + 1, entry.text, words, at);
    this.history.record({ agent, action: 'proposed', path: entry.path, line: entry.index + 1, before: entry.text, after: words });
    return { outcome: 'proposed', path: entry.path, line: entry.index + 1, ref: formatEntryRef(entry.path, entry.index + 1, entry.text), proposalId: id };
  }

  /** The entry a ref names, found at its line or (lines moved) as the one line with its version. */
  private locate(ref: string): LocatedEntry {
    const { path: rel, line, version } = parseEntryRef(ref);
    const abs = this.options.files.resolve(rel);
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(abs);
    } catch (error) {
      throw new ReverieError('not-found', `${rel} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); the entry no longer exists.`);
    }
    const lines = bytes.toString('utf8').split('\n');
    const at = (i: number) => lines[i]!.replace(/\r$/, '');
    let index = line - 1 < lines.length && lineVersion(at(line - 1)) === version && isEntryLine(at(line - 1)) ? line - 1 : -1;
    if (index === -1) {
      const same = lines.map((_, i) => i).filter((i) => isEntryLine(at(i)) && lineVersion(at(i)) === version);
      if (same.length === 1) index = same[0]!;
      else if (same.length > 1) throw new ReverieError('conflict', `${rel} holds that entry ${same.length} times and none at line ${line}; read the file again (memory_get) and use the ref of the line you mean.`);
    }
    if (index === -1) {
      const newer = this.history.successorOf(rel, version);
      if (newer) throw new ReverieError('conflict', `${rel} line ${line} was changed by ${newer.agent ? `agent "${newer.agent}"` : 'someone'} at ${newer.at} after you read it; read it again (memory_recent or memory_get) and retry with its new ref.`);
      throw new ReverieError('not-found', `${rel} has no line ${line} reading as it did (${version}): the entry was changed or removed. Find it again with memory_recent or memory_search.`);
    }
    const text = at(index);
    const row = this.options.indexDb().prepare('SELECT origin, actor FROM line_provenance WHERE path = ? AND line_hash = ?').get(rel, lineHash(text)) as { origin: OriginClass; actor: string | null } | undefined;
    return { path: rel, abs, bytes, lines, index, text, origin: row?.origin ?? 'owner', actor: row?.actor ?? null };
  }

  /** Rewrites (or with null removes) one line; false when the file changed since it was read. */
  private replaceLine(entry: LocatedEntry, next: string | null): boolean {
    const lines = [...entry.lines];
    const cr = lines[entry.index]!.endsWith('\r') ? '\r' : '';
    if (next === null) lines.splice(entry.index, 1);
    else lines[entry.index] = next + cr;
    const result = replaceFileChecked({ file: entry.abs, expectedSha256: sha256Hex(entry.bytes), next: Buffer.from(lines.join('\n'), 'utf8'), lockFile: this.options.lockFile });
    return result.outcome === 'written';
  }
}

function busy(rel: string): ReverieError {
  return new ReverieError('conflict', `${rel} kept changing while Reverie tried to edit it; try again in a moment.`);
}

interface ProposalRow {
  id: string;
  agent: string;
  path: string;
  line: number;
  before: string;
  after: string;
  created_at: string;
  status: EditProposal['status'];
  decided_at: string | null;
  note: string | null;
}

function toProposal(r: ProposalRow): EditProposal {
  return { id: r.id, agent: r.agent, path: r.path, line: r.line, before: r.before, after: r.after, createdAt: r.created_at, status: r.status, decidedAt: r.decided_at, note: r.note };
}
