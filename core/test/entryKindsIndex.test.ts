import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { classifyFileEntries, ENTRY_KINDS_VERSION, storedKindOf } from '../src/index/entryKinds.js';
import { EntryKindsTable } from '../src/index/entryKindsTable.js';
import { lineHash, lineOriginLookup } from '../src/provenance/lineHash.js';
import { recordWrittenLines } from '../src/provenance/recordWrites.js';
import { dream, dreamingWorkspaces, recallOver } from './helpers/dreaming.js';

const NOTE = [
  '# 2026-10-20',
  '',
  '- The staging box is ares.internal, port 8443, behind the corp VPN.',
  '- [ ] renew the TLS certificate on ares.internal (expires Oct 30!)',
  '- Why does the nightly reconciliation job spike?',
  '- Priya is on holiday Nov 2–6; Marco approves releases.',
  '- Prefer Vitest over Jest for new test suites.',
  '- Ask about it later <!-- kind: fact -->',
  '',
].join('\n');

const openWorkspace = dreamingWorkspaces();
let root = '';

const indexDb = (s: MemoryService) => (s as unknown as { index: { db: Database.Database } }).index.db;
const stored = (db: Database.Database, file: string) =>
  new EntryKindsTable(db).of(file).map((k) => ({ line: k.startLine, kind: k.kind, validUntil: k.validUntil, cue: k.cue }));

async function open(files: Record<string, string>, now = new Date(2026, 9, 21, 3, 0, 0).getTime()) {
  const { ws, service, clock } = await openWorkspace(files, now);
  root = ws.root;
  return { service, clock, db: indexDb(service) };
}

describe('entry kinds, decided when a file is indexed', () => {
  it('stores every entry’s kind, with its validity and the wording that decided it', async () => {
    const { db } = await open({ 'memory/2026-10-20.md': NOTE });
    expect(stored(db, 'memory/2026-10-20.md')).toEqual([
      { line: 3, kind: 'fact', validUntil: null, cue: 'no other kind matched' },
      { line: 4, kind: 'task', validUntil: null, cue: 'a checkbox' },
      { line: 5, kind: 'question', validUntil: null, cue: 'a question mark' },
      { line: 6, kind: 'time-bounded', validUntil: '2026-11-06', cue: '"Nov 2–6"' },
      { line: 7, kind: 'preference', validUntil: null, cue: 'a directive by the person' },
      { line: 8, kind: 'fact', validUntil: null, cue: 'a kind annotation' },
    ]);
  });

  it('search results carry the kinds of the entries they cite; provenance lists them per entry', async () => {
    const { service } = await open({ 'memory/2026-10-20.md': NOTE });
    const { results } = await service.invoke('memory.search', { query: 'renew the TLS certificate', limit: 3 });
    const hit = results.find((r) => r.path === 'memory/2026-10-20.md')!;
    expect(hit.entryKinds?.map((k) => k.kind)).toContain('task');
    for (const k of hit.entryKinds ?? []) expect(k.endLine >= hit.startLine && k.startLine <= hit.endLine).toBe(true);
    const chain = await service.invoke('provenance.get', { ref: 'memory/2026-10-20.md:4-6' });
    expect(chain.entryKinds).toEqual([
      { startLine: 4, endLine: 4, kind: 'task', validUntil: null, cue: 'a checkbox' },
      { startLine: 5, endLine: 5, kind: 'question', validUntil: null, cue: 'a question mark' },
      { startLine: 6, endLine: 6, kind: 'time-bounded', validUntil: '2026-11-06', cue: '"Nov 2–6"' },
    ]);
  });

  it('a changed file gets its kinds again; a deleted one loses them', async () => {
    const { service, db } = await open({ 'memory/2026-10-20.md': NOTE });
    fs.writeFileSync(path.join(root, 'memory/2026-10-20.md'), '# 2026-10-20\n\n- TODO: write the Acme go-live checklist\n');
    await service.sync(false);
    expect(stored(db, 'memory/2026-10-20.md').map((r) => [r.line, r.kind])).toEqual([[3, 'task']]);
    fs.rmSync(path.join(root, 'memory/2026-10-20.md'));
    await service.sync(false);
    expect(stored(db, 'memory/2026-10-20.md')).toEqual([]);
  });

  it('kinds made by other rules are read again at the next sync, without re-chunking the file', async () => {
    const { service, db } = await open({ 'memory/2026-10-20.md': NOTE });
    const chunkIds = db.prepare('SELECT id FROM chunks ORDER BY id').pluck().all();
    const table = new EntryKindsTable(db);
    table.write('memory/2026-10-20.md', table.of('memory/2026-10-20.md').map((k) => ({ ...k, kind: 'event' as const, cue: 'older rules' })));
    expect(stored(db, 'memory/2026-10-20.md').map((r) => r.kind)).toEqual(Array(6).fill('event'));
    db.prepare("UPDATE meta SET value = 'older-rules' WHERE key = 'entry_kinds'").run();
    await service.sync(false);
    expect(stored(db, 'memory/2026-10-20.md').map((r) => r.kind)).toEqual(['fact', 'task', 'question', 'time-bounded', 'preference', 'fact']);
    expect(db.prepare("SELECT value FROM meta WHERE key = 'entry_kinds'").pluck().get()).toBe(ENTRY_KINDS_VERSION);
    expect(db.prepare('SELECT id FROM chunks ORDER BY id').pluck().all()).toEqual(chunkIds);
  });

  it("a kind annotation counts only on the person's own lines", () => {
    const text = '# Notes\n\n- TODO: buy milk <!-- kind: fact -->\n';
    expect(classifyFileEntries('memory/notes.md', text)[0]).toMatchObject({ kind: 'fact', cue: 'a kind annotation' });
    const agentWrote = new Map([[lineHash('- TODO: buy milk <!-- kind: fact -->'), 'agent' as const]]);
    expect(classifyFileEntries('memory/notes.md', text, lineOriginLookup(agentWrote))[0]).toMatchObject({ kind: 'task' });
  });

  it("an agent's line that names its own kind is stored by its wording through the engine too", async () => {
    const { service, db } = await open({ 'memory/notes.md': '# Notes\n' });
    const line = '- TODO: wire the payments webhook <!-- kind: fact -->';
    recordWrittenLines(db, 'memory/notes.md', [line], { origin: 'agent', via: 'agent', actor: 'codex' });
    fs.appendFileSync(path.join(root, 'memory/notes.md'), `${line}\n`);
    await service.sync(false);
    expect(stored(db, 'memory/notes.md')).toMatchObject([{ line: 2, kind: 'task' }]);
  });
});

describe('dreaming reads the stored kind', () => {
  it('from the index when the entry is as indexed, and classifies it itself when the file changed since', async () => {
    const { service, clock } = await open({ 'memory/2026-10-20.md': NOTE }, new Date(2026, 9, 22, 3, 0, 0).getTime());
    await recallOver(service, clock, [
      { query: 'staging box ares.internal port', daysAgo: 1 },
      { query: 'renew TLS certificate ares.internal', daysAgo: 1 },
    ]);
    const run = await dream(service, { dryRun: true, thresholds: { minScore: 0, minRecallCount: 1, minUniqueQueries: 1 } });
    const staging = run.candidates.find((c) => c.key === 'memory/2026-10-20.md:3:3')!;
    const certificate = run.candidates.find((c) => c.key === 'memory/2026-10-20.md:4:4')!;
    expect(staging).toMatchObject({ kind: 'fact', kindSource: 'index', kindCue: 'no other kind matched' });
    expect(certificate).toMatchObject({ kind: 'task', kindSource: 'index', outcome: 'below-gates' });

    // A row about other text (the file edited on disk, not indexed yet) is not used: the sweep reads the text itself.
    const db = indexDb(service);
    const raw = '- The staging box is ares.internal, port 8443, behind the corp VPN.';
    expect(storedKindOf(db, 'memory/2026-10-20.md', { startLine: 3, endLine: 3, raw })).toMatchObject({ kind: 'fact' });
    expect(storedKindOf(db, 'memory/2026-10-20.md', { startLine: 3, endLine: 3, raw: `${raw} Needs the new client.` })).toBeNull();
    expect(storedKindOf(db, 'memory/2026-10-20.md', { startLine: 3, endLine: 4, raw })).toBeNull();
  });
});
