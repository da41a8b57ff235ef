import type Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import type { IndexStore } from '../src/index/indexStore.js';
import { sha256Hex } from '../src/platform/hash.js';
import { ingestTranscripts } from '../src/sessions/ingestTranscripts.js';
import { cliEnv, runCli } from './helpers/cli.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'sessions');
let ws: TempWorkspace;
let service: MemoryService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
  ws?.cleanup();
});

/** Copies the project's transcript fixtures into tool home folders beside the workspace. */
function toolHomes(): { codex: string; 'claude-code': string; openclaw: string } {
  const base = path.dirname(ws.root);
  const homes = { codex: path.join(base, 'codex-home'), 'claude-code': path.join(base, 'claude-home'), openclaw: path.join(base, 'openclaw-home') };
  fs.cpSync(path.join(fixtures, 'codex'), homes.codex, { recursive: true });
  fs.cpSync(path.join(fixtures, 'claude-code'), homes['claude-code'], { recursive: true });
  fs.cpSync(path.join(fixtures, 'openclaw'), homes.openclaw, { recursive: true });
  return homes;
}

function hashTree(dir: string): string {
  const parts: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else parts.push(`${path.relative(dir, p)}:${sha256Hex(fs.readFileSync(p))}:${fs.statSync(p).mtimeMs}`);
    }
  };
  walk(dir);
  return sha256Hex(parts.join('\n'));
}

const indexOf = (s: MemoryService) => (s as unknown as { index: { db: Database.Database; store: IndexStore } }).index;

const search = async (s: MemoryService, query: string, extra: object = {}) =>
  (await s.invoke('memory.search', { query, limit: 20, ...extra })).results;

describe('transcript ingestion', () => {
  it('ingests Codex, Claude Code and OpenClaw transcripts as the sessions source, read-only, incrementally', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    const homes = toolHomes();
    const before = Object.values(homes).map(hashTree);
    service = openService(ws);
    const report = await service.invoke('sessions.ingest', { homes });
    expect(report.failed).toBe(0);
    expect(report.added).toBeGreaterThanOrEqual(4);
    expect(report.messages).toBeGreaterThan(5);
    expect(Object.values(homes).map(hashTree)).toEqual(before); // sources never modified

    const settings = await service.invoke('settings.get', {});
    expect(settings.sessions).toEqual(homes);

    const st = await service.invoke('status', {});
    const transcripts = st.files.filter((f) => f.source === 'sessions');
    expect(transcripts.length).toBe(report.transcripts);
    expect(st.sessions).toMatchObject({ transcripts: report.added, messages: report.messages });
    expect(st.sessions.lines).toBeGreaterThan(report.messages);
    expect(st.embedding.embedded).toBe(st.index.chunks);

    // Transcript text is searchable by default, with its provenance on every result.
    const hits = await search(service, 'currency backfill archived rows');
    const hit = hits.find((r) => r.source === 'sessions');
    expect(hit).toBeDefined();
    expect(hit!.origin).toMatch(/^(owner|agent|untrusted|system)$/);
    expect(hit!.sessionKind).not.toBeNull();
    const chain = await service.invoke('provenance.get', { ref: hit!.id });
    expect(chain.transcript).toMatchObject({ tool: 'claude-code', sessionId: expect.any(String) });
    expect(chain.transcript!.originalPath.startsWith(homes['claude-code'])).toBe(true);
    expect(chain.transcript!.lines[0]!.sourceLine).toBeGreaterThan(0);
    expect((await search(service, 'currency backfill archived rows', { sources: ['memory'] })).every((r) => r.source === 'memory')).toBe(true);

    // Nothing changed: nothing read.
    const again = await service.invoke('index.sync', {});
    expect(again.sessions).toMatchObject({ added: 0, appended: 0, unchanged: report.transcripts - report.skipped });

    // Appended lines are ingested incrementally.
    const file = path.join(homes['claude-code'], 'projects', '-home-dana-src-ledgerd', '7c0f3a52-1b2d-4e5f-8a9b-0c1d2e3f4a5b.jsonl');
    const line = JSON.stringify({
      parentUuid: null, isSidechain: false, userType: 'external', cwd: '/home/dana/src/ledgerd', sessionId: '7c0f3a52-1b2d-4e5f-8a9b-0c1d2e3f4a5b',
      type: 'user', message: { role: 'user', content: 'Remember the pelican migration window is Thursday night.' }, uuid: 'u-new', timestamp: '2026-03-05T11:00:00.000Z',
    });
    fs.appendFileSync(file, line + '\n');
    const grown = await service.invoke('index.sync', {});
    expect(grown.sessions).toMatchObject({ appended: 1, messages: 1 });
    const pelican = (await search(service, 'pelican migration window')).find((r) => r.source === 'sessions');
    expect(pelican?.origin).toBe('owner');
  });

  it('keeps poisoned tool output untrusted: nothing from it is owner or agent', async () => {
    ws = createTempWorkspace();
    const base = path.dirname(ws.root);
    const claude = path.join(base, 'claude-home');
    fs.mkdirSync(path.join(claude, 'projects', '-p'), { recursive: true });
    fs.copyFileSync(path.join(fixtures, 'poisoning', 'claude-code.jsonl'), path.join(claude, 'projects', '-p', 'poison.jsonl'));
    const codex = path.join(base, 'codex-home');
    fs.mkdirSync(path.join(codex, 'sessions', '2026', '01', '01'), { recursive: true });
    fs.copyFileSync(path.join(fixtures, 'poisoning', 'codex.jsonl'), path.join(codex, 'sessions', '2026', '01', '01', 'rollout-poison.jsonl'));
    const openclaw = path.join(base, 'openclaw-home');
    fs.mkdirSync(path.join(openclaw, 'agents', 'main', 'sessions'), { recursive: true });
    fs.copyFileSync(path.join(fixtures, 'poisoning', 'openclaw.jsonl'), path.join(openclaw, 'agents', 'main', 'sessions', 'poison.jsonl'));
    service = openService(ws);
    const report = await service.invoke('sessions.ingest', { homes: { 'claude-code': claude, codex, openclaw } });
    expect(report.added).toBe(3);
    const db = (service as unknown as { db: Database.Database }).db;
    const poisoned = db.prepare("SELECT origin, text FROM (SELECT origin, chunk_text(text) AS text FROM chunks WHERE source = 'sessions') WHERE text LIKE '%99-1234%' OR text LIKE '%note this as important%'").all() as Array<{ origin: string }>;
    expect(poisoned.length).toBeGreaterThan(0);
    expect(poisoned.filter((c) => c.origin === 'owner' || c.origin === 'agent')).toEqual([]);
  });

  it('forgets a session: removed from the index, kept out on re-ingestion, workspace untouched', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    const homes = toolHomes();
    service = openService(ws);
    await service.invoke('sessions.ingest', { homes });
    const hit = (await search(service, 'currency backfill archived rows')).find((r) => r.source === 'sessions')!;
    const chain = await service.invoke('provenance.get', { ref: hit.id });
    const sessionId = chain.transcript!.sessionId;
    const report = await service.invoke('forget', { session: sessionId });
    expect(report.removed.files.length).toBeGreaterThan(0);
    expect(report.removed.chunks).toBeGreaterThan(0);
    expect((await search(service, 'currency backfill archived rows')).filter((r) => r.source === 'sessions' && report.removed.files.includes(r.path))).toEqual([]);
    // Touch the transcript so it would be re-read: the tombstone keeps it out.
    const file = report.removed.files[0]!;
    const abs = path.join(homes['claude-code'], file.slice('sessions/claude-code/'.length));
    fs.utimesSync(abs, new Date(), new Date());
    await service.invoke('index.sync', {});
    expect((await search(service, 'currency backfill archived rows')).filter((r) => report.removed.files.includes(r.path))).toEqual([]);
    expect(fs.readFileSync(path.join(ws.root, 'MEMORY.md'), 'utf8')).toBe(SAMPLE_NOTES['MEMORY.md']);
  });

  it('reports bad transcripts with reasons and keeps going', async () => {
    ws = createTempWorkspace();
    const base = path.dirname(ws.root);
    const claude = path.join(base, 'claude-home');
    const project = path.join(claude, 'projects', '-x');
    fs.mkdirSync(project, { recursive: true });
    fs.writeFileSync(path.join(project, 'garbage.jsonl'), 'not json at all\n{"also": "not a transcript"}\n');
    fs.writeFileSync(path.join(project, 'big.jsonl'), Buffer.alloc(2 * 1024 * 1024, 0x20));
    fs.symlinkSync(path.join(project, 'garbage.jsonl'), path.join(project, 'link.jsonl'));
    service = openService(ws);
    await service.invoke('settings.set', { patch: { maxTranscriptSizeMB: 1 } });
    const report = await service.invoke('sessions.ingest', { homes: { 'claude-code': claude, codex: path.join(base, 'missing-codex') } });
    const reasons = Object.fromEntries(report.problems.map((p) => [path.basename(p.path), p.reason]));
    expect(reasons['big.jsonl']).toMatch(/^too large/);
    expect(reasons['link.jsonl']).toBe('symlink (not followed)');
    // Unknown and malformed lines are counted, never fatal.
    expect(report).toMatchObject({ failed: 0, unknownLines: 1, malformedLines: 1 });
    expect(reasons['missing-codex']).toMatch(/home folder not found/);
  });

  it('passes a transcript skipped as before (same file, same reason) without writing to the index', async () => {
    ws = createTempWorkspace();
    const claude = path.join(path.dirname(ws.root), 'claude-home');
    const project = path.join(claude, 'projects', '-x');
    fs.mkdirSync(project, { recursive: true });
    fs.cpSync(path.join(fixtures, 'claude-code'), claude, { recursive: true });
    const big = path.join(project, 'big.jsonl');
    fs.writeFileSync(big, Buffer.alloc(2 * 1024 * 1024, 0x20));
    fs.symlinkSync(big, path.join(project, 'link.jsonl'));
    service = openService(ws);
    const homes = { 'claude-code': claude };
    const first = await ingestTranscripts(indexOf(service).db, indexOf(service).store, homes, { maxBytes: 1024 * 1024 });
    expect(first.skipped).toBe(2);
    expect(first.added).toBeGreaterThan(0);

    const { db, store } = indexOf(service);
    const changes = db.prepare('SELECT total_changes()').pluck();
    const rows = () => db.prepare("SELECT path, status, reason, size, mtime_ms, indexed_at FROM files WHERE source = 'sessions' ORDER BY path").all();
    const rowsBefore = rows();
    const changesBefore = changes.get();
    const again = await ingestTranscripts(db, store, homes, { maxBytes: 1024 * 1024 });
    expect(changes.get()).toBe(changesBefore);
    expect(rows()).toEqual(rowsBefore);
    // Still reported each time: status and the sync report keep saying why.
    expect(again).toMatchObject({ skipped: 2, added: 0, appended: 0, unchanged: first.added });
    expect(again.problems.map((p) => [path.basename(p.path), p.reason])).toEqual(first.problems.map((p) => [path.basename(p.path), p.reason]));

    // A skipped transcript that changed, or a new reason (another limit), is written again.
    fs.appendFileSync(big, Buffer.alloc(1024 * 1024, 0x20));
    await ingestTranscripts(db, store, homes, { maxBytes: 1024 * 1024 });
    expect(db.prepare('SELECT reason FROM files WHERE path LIKE ?').pluck().get('%/big.jsonl')).toMatch(/^too large \(3\.0 MB/);
    await ingestTranscripts(db, store, homes, { maxBytes: 2 * 1024 * 1024 });
    expect(db.prepare('SELECT reason FROM files WHERE path LIKE ?').pluck().get('%/big.jsonl')).toMatch(/the limit is 2 MB/);
  });

  it('reverie sessions ingest remembers the folders', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    const homes = toolHomes();
    const env = cliEnv(ws.dataDir);
    const r = await runCli(['sessions', 'ingest', '--claude', homes['claude-code'], '--json', '--workspace', ws.root], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ failed: 0 });
    const cfg = await runCli(['config', 'get', 'sessions', '--json'], env);
    expect(JSON.parse(cfg.stdout)).toMatchObject({ 'claude-code': homes['claude-code'] });
  });
});
