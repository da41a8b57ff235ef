import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { runThinCommand } from '../src/cli/fast/thinCommands.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { capturingStdout, cliEnv, runCli } from './helpers/cli.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

// Spawned CLIs run from source through tsx on a loaded machine: generous.
const SLOW = 240_000;
let ws: TempWorkspace;
let host: MemoryService | null = null;

afterEach(async () => {
  await host?.close();
  host = null;
  ws?.cleanup();
});

const where = () => ['--workspace', ws.root, '--data-dir', ws.dataDir];

function indexFile(): string {
  const dir = path.join(ws.dataDir, 'index');
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.sqlite'));
  if (!file) throw new Error(`no index in ${dir}`);
  return path.join(dir, file);
}

const sha256 = (file: string): string => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** `reverie search …` with no host running: the engine loaded in the CLI process. */
async function searchWithoutHost(args: string[]): Promise<string> {
  const result = await runCli(['search', ...args, ...where()], cliEnv(ws.dataDir), SLOW);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout;
}

async function indexed(): Promise<void> {
  const service = openService(ws);
  await service.sync(false);
  await service.close();
}

describe('reverie search without a host', () => {
  it('reads the index as the last sync left it, writes nothing to it, and prints what a host answers', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    await indexed();
    const before = sha256(indexFile());
    const cases = [
      ['atlas', 'systemd', '--json'],
      ['restic', '--json', '--limit', '3', '--source', 'memory'],
      ['who', 'is', 'out', 'sick'],
    ];
    const withoutHost = [];
    for (const args of cases) withoutHost.push(await searchWithoutHost(args));
    expect(sha256(indexFile()), 'the index file is byte for byte what the sync left').toBe(before);
    expect(JSON.parse(withoutHost[0]!)[0]).toMatchObject({ path: 'memory/2026-04-06.md' });
    // The searches are still recall signals for dreaming (those whose results recalled an entry), as a host records them.
    const dreams = new Database(path.join(ws.dataDir, 'dreaming', path.basename(indexFile())), { readonly: true });
    const signals = dreams.prepare("SELECT count(DISTINCT query_hash) AS n FROM recall_signals WHERE transport = 'cli'").get() as { n: number };
    dreams.close();
    expect(signals.n).toBeGreaterThan(0);

    host = openService(ws);
    await host.startHosting({ kind: 'serve', url: null });
    for (const [i, args] of cases.entries()) {
      const { out, result } = await capturingStdout(() => runThinCommand(['search', ...args, ...where()], () => Promise.reject(new Error('the thin path fell back'))));
      expect(result).toBe(0);
      expect(out, args.join(' ')).toBe(withoutHost[i]);
    }
  }, SLOW * 4);

  it('records the recall of a transcript it found: the transcript\'s lines are read back from the stored (deflated) chunk text', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    const home = path.join(path.dirname(ws.root), 'claude');
    const project = path.join(home, 'projects', '-home-dana-src-ledgerd');
    fs.mkdirSync(project, { recursive: true });
    const base = { sessionId: '12345678-1111-2222-3333-444444444444', cwd: '/home/dana/src/ledgerd', isSidechain: false, userType: 'external', timestamp: '2026-04-06T10:00:00Z' };
    const turns = [
      { ...base, type: 'user', uuid: 'u1', message: { role: 'user', content: 'Where does the heron migration run?' } },
      { ...base, type: 'assistant', uuid: 'a1', message: { role: 'assistant', content: [{ type: 'text', text: 'The heron migration runs nightly on the quarry cluster.' }] } },
    ];
    fs.writeFileSync(path.join(project, `${base.sessionId}.jsonl`), turns.map((t) => JSON.stringify(t)).join('\n') + '\n');
    const service = openService(ws);
    await service.invoke('sessions.ingest', { homes: { 'claude-code': home } });
    await service.sync(false);
    await service.close();

    const results = JSON.parse(await searchWithoutHost(['heron', 'quarry', '--json', '--source', 'sessions'])) as Array<{ path: string }>;
    expect(results[0]?.path).toMatch(/^sessions\//);
    // Recording the recall reads the transcript's entries from the index (a transcript has no file to read them from).
    const dreams = new Database(path.join(ws.dataDir, 'dreaming', path.basename(indexFile())), { readonly: true });
    const recalled = dreams.prepare("SELECT count(*) AS n FROM recall_signals WHERE transport = 'cli' AND path = ?").get(results[0]!.path) as { n: number };
    dreams.close();
    expect(recalled.n).toBeGreaterThan(0);
  }, SLOW);

  it('indexes a workspace that has no index yet before searching it', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    const results = JSON.parse(await searchWithoutHost(['restic', '--json'])) as Array<{ path: string }>;
    expect(results[0]).toMatchObject({ path: 'MEMORY.md' });
    expect(fs.existsSync(indexFile())).toBe(true);
  }, SLOW);

  it('opens an index it cannot read as it is the usual way (here: a newer schema, moved aside and rebuilt)', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    await indexed();
    const db = new Database(indexFile());
    db.pragma('user_version = 999');
    db.close();
    const results = JSON.parse(await searchWithoutHost(['restic', '--json'])) as Array<{ path: string }>;
    expect(results[0]).toMatchObject({ path: 'MEMORY.md' });
    expect(fs.readdirSync(path.dirname(indexFile())).some((f) => f.includes('.corrupt-'))).toBe(true);
  }, SLOW);

  it('catches up an index whose first sync was cut short (no last_sync_at) before searching it', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    await indexed();
    const cut = new Database(indexFile());
    cut.prepare("DELETE FROM meta WHERE key = 'last_sync_at'").run();
    cut.close();
    const results = JSON.parse(await searchWithoutHost(['restic', '--json'])) as Array<{ path: string }>;
    expect(results[0]).toMatchObject({ path: 'MEMORY.md' });
    const db = new Database(indexFile(), { readonly: true });
    expect(db.prepare("SELECT value FROM meta WHERE key = 'last_sync_at'").get()).toBeDefined();
    db.close();
  }, SLOW);

  it('finds a line typed after the last sync, and forgets a note removed since: the index is caught up first when the notes changed', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    await indexed();
    fs.appendFileSync(path.join(ws.root, 'memory', '2026-04-06.md'), '\n- The quokka sanctuary opens on Saturday.\n');
    const afterEdit = JSON.parse(await searchWithoutHost(['quokka', 'sanctuary', '--json'])) as Array<{ path: string }>;
    expect(afterEdit[0]).toMatchObject({ path: 'memory/2026-04-06.md' });
    fs.writeFileSync(path.join(ws.root, 'memory', '2026-04-07.md'), '# Tuesday\n\n- Bought a theremin for the studio.\n');
    const afterAdd = JSON.parse(await searchWithoutHost(['theremin', '--json'])) as Array<{ path: string }>;
    expect(afterAdd[0]).toMatchObject({ path: 'memory/2026-04-07.md' });
    fs.rmSync(path.join(ws.root, 'memory', '2026-04-07.md'));
    const afterRemove = JSON.parse(await searchWithoutHost(['theremin', '--json'])) as Array<{ path: string }>;
    expect(afterRemove.filter((r) => r.path === 'memory/2026-04-07.md')).toEqual([]);
  }, SLOW * 3);
});
