import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { DreamRun, DreamRunSummary } from '../src/contract/index.js';
import { dreamDatabasePath } from '../src/dreaming/dreamDatabase.js';
import { recordWrittenLines } from '../src/provenance/recordWrites.js';
import { resolveExistingWorkspace } from '../src/workspace/resolveWorkspace.js';
import { cliEnv, runCli } from './helpers/cli.js';
import { DAY_MS } from './helpers/dreaming.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

const NOTES = {
  'MEMORY.md': '# Long-Term Memory\n\n- Keep the gateway on loopback. <!-- importance: 9 -->\n',
  'USER.md': '# User\n\n- Always answer in under ten lines unless asked for detail. <!-- observed: 2026-03-01 --> <!-- status: active -->\n',
  'memory/2026-11-27.md': '# 2026-11-27\n\n- Moved the production deploy target from fly.io to a Hetzner box named ledgerd-prod-2.\n- Invoice fonts are still missing glyphs.\n',
  'memory/2026-11-28.md': '# 2026-11-28\n\n- The staging database is ledgerd-staging on port 5433.\n- Lunch with Marek about the tax module.\n',
};
const PRODUCTION_KEY = 'memory/2026-11-27.md:3:3';
const STAGING_KEY = 'memory/2026-11-28.md:3:3';
const ANY_RECALL = ['--min-score', '0', '--min-recall-count', '1', '--min-unique-queries', '1'];

let ws: TempWorkspace | null = null;
afterEach(() => {
  ws?.cleanup();
  ws = null;
});

/** A workspace whose production and staging entries were recalled just now (wall clock: the CLI sweeps with it). */
async function seeded(): Promise<{ ws: TempWorkspace; env: NodeJS.ProcessEnv; at: string[] }> {
  ws = createTempWorkspace(NOTES);
  const service = openService(ws);
  try {
    await service.sync(false);
    for (const query of ['where does production deploy now', 'ledgerd-prod-2 hetzner box', 'staging database port 5433']) {
      await service.invoke('memory.search', { query, limit: 5 });
    }
    service.dreams.recorder.flush();
  } finally {
    await service.close();
  }
  return { ws, env: cliEnv(ws.dataDir), at: ['--workspace', ws.root] };
}

const read = (rel: string) => fs.readFileSync(path.join(ws!.root, rel), 'utf8');

function oneJson<T>(stdout: string): T {
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as T;
}

describe('reverie dream', () => {
  it('--dry-run writes nothing; --json prints one run with candidates, signals, gates and promotions; `dream runs --json` lists them', async () => {
    const { env, at } = await seeded();
    const memoryBefore = read('MEMORY.md');

    const dry = await runCli(['dream', '--dry-run', '--json', ...ANY_RECALL, ...at], env);
    expect(dry.code).toBe(0);
    const dryRun = oneJson<DreamRun>(dry.stdout);
    expect(dryRun).toMatchObject({ dryRun: true, status: 'ok', trigger: 'manual' });
    expect(dryRun.writes.length).toBeGreaterThan(0);
    expect(dryRun.writes.every((w) => w.outcome === 'dry-run')).toBe(true);
    expect(read('MEMORY.md')).toBe(memoryBefore);
    expect(fs.existsSync(path.join(ws!.root, 'DREAMS.md'))).toBe(false);
    expect(fs.readdirSync(ws!.root).filter((n) => n.endsWith('.tmp'))).toEqual([]);

    const real = await runCli(['dream', '--json', ...ANY_RECALL, ...at], env);
    expect(real.code).toBe(0);
    const run = oneJson<DreamRun>(real.stdout);
    expect(run.id).toMatch(/^dream:[\w-]+$/);
    expect(run.id).not.toBe(dryRun.id);
    expect(run).toMatchObject({ status: 'ok', reason: null, dryRun: false, thresholds: { minScore: 0, minRecallCount: 1, minUniqueQueries: 1 } });
    const production = run.candidates.find((c) => c.key === PRODUCTION_KEY)!;
    expect(production.outcome).toBe('promoted');
    expect(production.signals).toMatchObject({ recallCount: expect.any(Number), uniqueQueries: expect.any(Number), meanScore: expect.any(Number) });
    expect(production.signals.recallCount).toBeGreaterThanOrEqual(1);
    expect(production.gates.map((g) => g.gate)).toEqual(expect.arrayContaining(['already-in-memory', 'score', 'recall-count', 'unique-queries', 'max-promotions']));
    expect(production.gates.every((g) => g.passed && typeof g.detail === 'string')).toBe(true);
    expect(run.promoted.map((p) => p.candidateKey)).toEqual(expect.arrayContaining([PRODUCTION_KEY, STAGING_KEY]));
    expect(run.promoted.every((p) => p.decision === 'auto' && p.target === 'MEMORY.md')).toBe(true);
    expect(read('MEMORY.md')).toContain('- Moved the production deploy target from fly.io to a Hetzner box named ledgerd-prod-2.');
    expect(read('DREAMS.md')).toContain(`<!-- reverie:dream-run ${run.id} -->`);

    const listed = await runCli(['dream', 'runs', '--json', ...at], env);
    expect(listed.code).toBe(0);
    const { runs, schedule } = oneJson<{ runs: DreamRunSummary[]; schedule: { enabled: boolean; time: string | null } }>(listed.stdout);
    expect(runs.map((r) => [r.id, r.status, r.dryRun])).toEqual([
      [run.id, 'ok', false],
      [dryRun.id, 'ok', true],
    ]);
    expect(runs[0]!.promoted).toBe(run.promoted.length);
    expect(schedule).toMatchObject({ enabled: true, time: '03:00' });

    // `dream show` lists each candidate's kind, and says when the index decided it.
    const shown = await runCli(['dream', 'show', run.id, ...at], env);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`promoted +fact \\(index\\) +${PRODUCTION_KEY.replace(/\./g, '\\.')}`));
  }, 60_000);

  it('review … reject removes the line; --rollback undoes the rest of the run', async () => {
    const { env, at } = await seeded();
    const memoryBefore = read('MEMORY.md');
    const run = oneJson<DreamRun>((await runCli(['dream', '--json', ...ANY_RECALL, ...at], env)).stdout);
    expect(read('MEMORY.md')).toContain('The staging database is ledgerd-staging on port 5433.');

    const reviewed = await runCli(['dream', 'review', run.id, STAGING_KEY, 'reject', '--json', ...at], env);
    expect(reviewed.code).toBe(0);
    const after = oneJson<DreamRun>(reviewed.stdout);
    expect(after.promoted.find((p) => p.candidateKey === STAGING_KEY)?.decision).toBe('rejected');
    expect(read('MEMORY.md')).not.toContain('The staging database');
    expect(read('MEMORY.md')).toContain('ledgerd-prod-2');
    expect(read('DREAMS.md')).toContain('You rejected “The staging database is ledgerd-staging on port 5433”');

    const rolled = await runCli(['dream', '--rollback', run.id, ...at], env);
    expect(rolled.code).toBe(0);
    expect(rolled.stdout).toMatch(new RegExp(`^Rolled back ${run.id}, each file read back and checked:`));
    // The review was part of the run: undoing the run undoes it too, back to the bytes before the sweep.
    expect(rolled.stdout).toMatch(/ {2}MEMORY\.md: MEMORY\.md is byte for byte as before the run/);
    expect(read('MEMORY.md')).toBe(memoryBefore);

    const again = await runCli(['dream', '--rollback', run.id, ...at], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already rolled back/);
  }, 60_000);

  it('prints why a proposal waits: an agent wrote the line, so the sweep writes nothing', async () => {
    ws = createTempWorkspace(NOTES);
    const service = openService(ws);
    try {
      const indexDb = (service as unknown as { db: Parameters<typeof recordWrittenLines>[0] }).db;
      recordWrittenLines(indexDb, 'memory/2026-11-28.md', ['- The staging database is ledgerd-staging on port 5433.'], { origin: 'agent', via: 'agent', actor: 'codex', detail: 'fact' });
      await service.sync(false);
      for (const query of ['staging database port 5433', 'ledgerd-staging port']) await service.invoke('memory.search', { query, limit: 5 });
      service.dreams.recorder.flush();
    } finally {
      await service.close();
    }
    const memoryBefore = read('MEMORY.md');
    const result = await runCli(['dream', ...ANY_RECALL, '--workspace', ws.root], cliEnv(ws.dataDir));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Proposed for MEMORY\.md \(added\): - The staging database is ledgerd-staging on port 5433\..*\n {4}waiting: written by an agent \(origin agent\), not by you/);
    expect(read('MEMORY.md')).not.toContain('ledgerd-staging');
    expect(read('MEMORY.md').startsWith(memoryBefore.trimEnd())).toBe(true);
  }, 60_000);

  it('bad input: a non-number threshold, an unknown subcommand and an incomplete review each exit 1 with a clear message', async () => {
    ws = createTempWorkspace(NOTES);
    const env = cliEnv(ws.dataDir);
    const at = ['--workspace', ws.root];

    const badScore = await runCli(['dream', '--min-score', 'abc', ...at], env);
    expect(badScore.code).toBe(1);
    expect(badScore.stdout).toBe('');
    expect(badScore.stderr).toContain('--min-score must be a number from 0 to 1 (got "abc")');

    const badCount = await runCli(['dream', '--min-recall-count', '2.5', ...at], env);
    expect(badCount.code).toBe(1);
    expect(badCount.stderr).toContain('--min-recall-count must be a whole number');

    const bogus = await runCli(['dream', 'bogus', ...at], env);
    expect(bogus.code).toBe(1);
    expect(bogus.stderr).toContain('Unknown dream command "bogus"');
    expect(bogus.stderr).toContain('Usage: reverie dream');

    const review = await runCli(['dream', 'review', 'dream:nope', 'memory/x.md:1:1', 'maybe', ...at], env);
    expect(review.code).toBe(1);
    expect(review.stderr).toContain('approve|reject');

    const unknownRun = await runCli(['dream', 'show', 'dream:missing', ...at], env);
    expect(unknownRun.code).toBe(1);
    expect(unknownRun.stderr).toContain('No dream run dream:missing');

    // None of it started a sweep or wrote a file.
    expect(fs.existsSync(path.join(ws.root, 'DREAMS.md'))).toBe(false);
    expect(read('MEMORY.md')).toBe(NOTES['MEMORY.md']);
  }, 60_000);

  it('one-shot commands never start a scheduled sweep, even when one is due and a catch-up is owed', async () => {
    const { ws, env, at } = await seeded();
    // Scheduled for this very minute, armed two days ago, no sweep since: a host would catch up now.
    const now = new Date();
    const time = `${String(now.getHours()).padStart(2, '0')}:${String(now.getMinutes()).padStart(2, '0')}`;
    const service = openService(ws);
    await service.invoke('settings.set', { patch: { dreaming: { schedule: time } } });
    await service.close();
    const db = new Database(dreamDatabasePath(ws.dataDir, resolveExistingWorkspace(ws.root).id));
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('schedule_armed', ?)").run(JSON.stringify({ time, at: Date.now() - 2 * DAY_MS }));
    db.close();

    expect((await runCli(['status', '--json', ...at], env)).code).toBe(0);
    expect((await runCli(['search', 'production', 'deploy', '--json', ...at], env)).code).toBe(0);
    const listed = await runCli(['dream', 'runs', '--json', ...at], env);
    expect(listed.code).toBe(0);
    const { runs, schedule } = oneJson<{ runs: DreamRunSummary[]; schedule: { enabled: boolean; time: string | null } }>(listed.stdout);
    expect(runs).toEqual([]);
    expect(schedule).toMatchObject({ enabled: true, time });
    expect(fs.existsSync(path.join(ws.root, 'DREAMS.md'))).toBe(false);
  }, 60_000);
});
