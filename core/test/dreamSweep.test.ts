import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_DREAM_SETTINGS, type DreamRun } from '../src/contract/index.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';
import { DAY_MS, dream, recallOver, testClock } from './helpers/dreaming.js';

const NOTES = {
  'MEMORY.md': '# Long-Term Memory\n\n- Keep the gateway on loopback. <!-- importance: 9 -->\n',
  'USER.md': '# User\n\n- Always answer in under ten lines unless asked for detail. <!-- observed: 2026-03-01 --> <!-- status: active -->\n',
  'memory/2026-11-27.md': '# 2026-11-27\n\n- Moved the production deploy target from fly.io to a Hetzner box named ledgerd-prod-2.\n- Invoice fonts are still missing glyphs.\n',
  'memory/2026-11-28.md': '# 2026-11-28\n\n- The staging database is ledgerd-staging on port 5433.\n- Lunch with Marek about the tax module.\n',
};

/** Three different questions on three days that all land on the production host entry. */
const PRODUCTION_RECALLS = [
  { query: 'where does production deploy now', daysAgo: 2 },
  { query: 'ledgerd-prod-2 hetzner box', daysAgo: 1 },
  { query: 'production deploy target moved from fly.io', daysAgo: 0 },
  { query: 'hetzner production host', daysAgo: 0 },
];

let ws: TempWorkspace | null = null;
let service: MemoryService | null = null;

afterEach(async () => {
  await service?.close();
  ws?.cleanup();
  service = null;
  ws = null;
});

async function setup(files: Record<string, string> = NOTES) {
  ws = createTempWorkspace(files);
  const clock = testClock(new Date(2026, 10, 29, 3, 0, 0).getTime());
  service = openService(ws, { now: clock.now });
  await service.sync(false);
  return { ws, service, clock };
}

const read = (rel: string) => fs.readFileSync(path.join(ws!.root, rel), 'utf8');

describe('dreaming sweep', () => {
  it("passes issue 18's bar with the default gates: a fact recalled by three different questions on two days, none of them opened", async () => {
    const { service, clock } = await setup({
      'MEMORY.md': '# Long-Term Memory\n',
      'memory/2026-11-20.md':
        '# 2026-11-20\n\n- Lab waste goes in the blue drums in room 214B; Clean Harbors collects on the first Monday of each month.\n- The printer on the second floor jammed twice today.\n- Seating plan for the parents evening is in the shared drive.\n',
    });
    await recallOver(service, clock, [
      { query: 'where does chemical waste go', daysAgo: 1 },
      { query: 'blue drums pickup schedule', daysAgo: 1 },
      { query: 'when do Clean Harbors collect', daysAgo: 0 },
    ]);
    const run = await dream(service);
    const waste = run.candidates.find((c) => c.key === 'memory/2026-11-20.md:3:3');
    expect(waste?.signals).toMatchObject({ recallCount: 3, uniqueQueries: 3 });
    expect(waste?.outcome).toBe('promoted');
    expect(read('MEMORY.md')).toContain('- Lab waste goes in the blue drums in room 214B');
  });

  it('promotes an entry recalled by several queries on several days into MEMORY.md, with a diary entry and provenance', async () => {
    const { service, clock } = await setup();
    await recallOver(service, clock, PRODUCTION_RECALLS);
    const run = await dream(service);

    expect(run.status).toBe('ok');
    const promoted = run.candidates.filter((c) => c.outcome === 'promoted');
    expect(promoted.map((c) => c.key)).toEqual(['memory/2026-11-27.md:3:3']);
    const candidate = promoted[0]!;
    expect(candidate.signals.recallCount).toBeGreaterThanOrEqual(3);
    expect(candidate.signals.uniqueQueries).toBe(4);
    expect(candidate.score).toBeGreaterThanOrEqual(DEFAULT_DREAM_SETTINGS.minScore);
    expect(candidate.gates.every((g) => g.passed)).toBe(true);
    expect(run.consolidation).toEqual({ mode: 'fallback', model: null, fallbackReason: null });

    const memory = read('MEMORY.md');
    expect(memory.startsWith(NOTES['MEMORY.md'])).toBe(true);
    expect(memory).toContain('\n## Promoted From Short-Term Memory (2026-11-29)\n<!-- openclaw-memory-promotion:memory:memory/2026-11-27.md:3:3 -->\n');
    // The words and their source, as a person would write them; no score or signal text.
    expect(memory).toMatch(/- Moved the production deploy target from fly\.io to a Hetzner box named ledgerd-prod-2\. Source: memory\/2026-11-27\.md#L3-L3\n$/);
    expect(memory).not.toMatch(/score=|signals=|recalls=/);

    const diary = read('DREAMS.md');
    expect(diary).toContain('<!-- openclaw:dreaming:diary:start -->');
    expect(diary).toContain(`<!-- reverie:dream-run ${run.id} -->`);
    expect(diary).toContain('## Memory Consolidation History');

    // The written line says it came from dreaming, from which run.
    await service.sync(false);
    const line = memory.split('\n').findIndex((l) => l.startsWith('- Moved the production')) + 1;
    const chain = await service.invoke('provenance.get', { ref: `MEMORY.md:${line}` });
    expect(chain.lines[0]!.writtenBy).toMatchObject({ via: 'dreaming', actor: run.id });

    // Promoted once: the next sweep does not write it again.
    const again = await dream(service);
    expect(again.candidates.find((c) => c.key === candidate.key)?.outcome).not.toBe('promoted');
    expect(read('MEMORY.md')).toBe(memory);
  });

  it('below the gates nothing is written, and the run says why', async () => {
    const { service, clock } = await setup();
    await recallOver(service, clock, [{ query: 'staging database port', daysAgo: 0 }]);
    const run = await dream(service);
    expect(run.status).toBe('nothing-to-do');
    expect(run.reason).toMatch(/none passed every gate/);
    const staging = run.candidates.find((c) => c.text.startsWith('The staging database'))!;
    expect(staging.outcome).toBe('below-gates');
    expect(staging.gates.find((g) => g.gate === 'recall-count')).toMatchObject({ passed: false, detail: '1 recalls (at least 3)' });
    expect(read('MEMORY.md')).toBe(NOTES['MEMORY.md']);
    expect(fs.existsSync(path.join(ws!.root, 'DREAMS.md'))).toBe(false);
  });

  it('a dry run computes the promotion and writes nothing', async () => {
    const { service, clock } = await setup();
    await recallOver(service, clock, PRODUCTION_RECALLS);
    const run = await dream(service, { dryRun: true });
    expect(run.dryRun).toBe(true);
    expect(run.candidates.filter((c) => c.outcome === 'promoted')).toHaveLength(1);
    expect(run.writes.map((w) => [w.file, w.outcome])).toEqual([
      ['MEMORY.md', 'dry-run'],
      ['DREAMS.md', 'dry-run'],
    ]);
    expect(run.writes[0]!.added.at(-1)).toMatch(/^- Moved the production deploy target/);
    expect(read('MEMORY.md')).toBe(NOTES['MEMORY.md']);
    expect(fs.existsSync(path.join(ws!.root, 'DREAMS.md'))).toBe(false);
    // Nothing was staged as promoted: a real sweep still promotes it.
    expect((await dream(service)).candidates.filter((c) => c.outcome === 'promoted')).toHaveLength(1);
  });

  it('thresholds given for one run override the settings (as a person replaying would)', async () => {
    const { service, clock } = await setup();
    await recallOver(service, clock, [{ query: 'staging database port', daysAgo: 0 }]);
    const run = await dream(service, { thresholds: { minScore: 0, minRecallCount: 1, minUniqueQueries: 1 } });
    expect(run.thresholds).toMatchObject({ minScore: 0, minRecallCount: 1, minUniqueQueries: 1 });
    expect(run.candidates.find((c) => c.text.startsWith('The staging database'))?.outcome).toBe('promoted');
    expect(read('MEMORY.md')).toContain('The staging database is ledgerd-staging on port 5433.');
  });

  it('a preference supersedes the active directive of the same lineage in USER.md, in place', async () => {
    const { service, clock } = await setup({
      ...NOTES,
      'memory/2026-11-28.md': '# 2026-11-28\n\n- Always answer in under five lines.\n',
    });
    await recallOver(service, clock, [
      { query: 'how long should answers be', daysAgo: 2 },
      { query: 'answer in under five lines', daysAgo: 1 },
      { query: 'answer length lines', daysAgo: 0 },
    ]);
    const run = await dream(service, { thresholds: { minScore: 0.3 } });
    const promotion = run.promoted.find((p) => p.target === 'USER.md');
    expect(promotion).toMatchObject({ action: 'superseded', decision: 'auto' });
    expect(read('USER.md')).toBe(
      '# User\n\n' +
        '- Always answer in under ten lines unless asked for detail. <!-- observed: 2026-03-01 --> <!-- status: superseded -->\n' +
        '- Always answer in under five lines. <!-- observed: 2026-11-28 --> <!-- status: active -->\n',
    );
  });

  it('review: reject removes a written promotion and notes it in the diary; approve protects one from rollback', async () => {
    const { service, clock } = await setup();
    await recallOver(service, clock, [...PRODUCTION_RECALLS, { query: 'staging database port 5433', daysAgo: 1 }]);
    const run = await dream(service, { thresholds: { minScore: 0, minRecallCount: 1, minUniqueQueries: 1 } });
    const keys = run.promoted.map((p) => p.candidateKey);
    expect(keys).toContain('memory/2026-11-27.md:3:3');
    expect(keys).toContain('memory/2026-11-28.md:3:3');

    const rejected = await service.invoke('dream.review', { runId: run.id, candidateKey: 'memory/2026-11-28.md:3:3', decision: 'reject' });
    expect(rejected.promoted.find((p) => p.candidateKey === 'memory/2026-11-28.md:3:3')?.decision).toBe('rejected');
    expect(read('MEMORY.md')).not.toContain('staging database');
    expect(read('DREAMS.md')).toContain('You rejected “The staging database is ledgerd-staging on port 5433”');

    await service.invoke('dream.review', { runId: run.id, candidateKey: 'memory/2026-11-27.md:3:3', decision: 'approve' });
    const rolled = await service.invoke('dream.rollback', { runId: run.id });
    expect(rolled.rolledBack?.mode).toBe('lines-removed');
    expect(read('MEMORY.md')).toContain('ledgerd-prod-2');

    // A rejected entry is not offered again.
    const next = await dream(service, { thresholds: { minScore: 0, minRecallCount: 1, minUniqueQueries: 1 } });
    expect(next.candidates.map((c) => c.key)).not.toContain('memory/2026-11-28.md:3:3');
  });

  it("never takes a candidate from OpenClaw's managed Light Sleep / REM Sleep blocks in a daily note, only the person's own line", async () => {
    const managed = [
      '# 2026-11-28',
      '',
      '## Light Sleep',
      '<!-- openclaw:dreaming:light:start -->',
      '- Candidate: Invoices: reconciliation batches are matched against the bank file by IBAN and amount.',
      '<!-- openclaw:dreaming:light:end -->',
      '',
      '## REM Sleep',
      '<!-- openclaw:dreaming:rem:start -->',
      '- Theme: `reconciliation` kept surfacing across 12 memories.',
      '<!-- openclaw:dreaming:rem:end -->',
      '',
      '- Reconciliation batches are matched against the bank file by IBAN and amount.',
      '',
    ].join('\n');
    const { service, clock } = await setup({ ...NOTES, 'memory/2026-11-28.md': managed });
    await recallOver(service, clock, [
      { query: 'how are reconciliation batches matched against the bank file', daysAgo: 2 },
      { query: 'IBAN amount reconciliation matching', daysAgo: 1 },
      { query: 'bank file matching reconciliation batches', daysAgo: 0 },
      { query: 'reconciliation theme surfacing', daysAgo: 0 },
    ]);
    const run = await dream(service);
    const keys = run.candidates.map((c) => c.key);
    expect(keys).toContain('memory/2026-11-28.md:13:13'); // after the block, under no heading of its own
    expect(keys.filter((k) => /^memory\/2026-11-28\.md:(5|10):/.test(k))).toEqual([]);
    expect(read('MEMORY.md')).not.toContain('Candidate:');
  });

  it('rollback of an unedited run restores MEMORY.md byte for byte from its pre-image', async () => {
    const { service, clock } = await setup();
    await recallOver(service, clock, PRODUCTION_RECALLS);
    const before = read('MEMORY.md');
    const run = await dream(service);
    expect(read('MEMORY.md')).not.toBe(before);
    const rolled = await service.invoke('dream.rollback', { runId: run.id });
    expect(rolled.rolledBack?.mode).toBe('restored');
    expect(read('MEMORY.md')).toBe(before);
    expect(fs.existsSync(path.join(ws!.root, 'DREAMS.md')) ? read('DREAMS.md') : '').not.toContain(run.id);
    await expect(service.invoke('dream.rollback', { runId: run.id })).rejects.toThrow(/already rolled back/);
  });

  it('a later write the run recorded but never renamed into place (killed inside its window) does not turn the rollback into a line-by-line one', async () => {
    const { service, clock } = await setup();
    await recallOver(service, clock, PRODUCTION_RECALLS);
    const before = read('MEMORY.md');
    const run = await dream(service);
    const landed = read('MEMORY.md');
    // What a process killed between recording its next MEMORY.md write and renaming it leaves behind.
    const dbFile = path.join(ws!.dataDir, 'dreaming', fs.readdirSync(path.join(ws!.dataDir, 'dreaming')).find((n) => n.endsWith('.sqlite'))!);
    const db = new Database(dbFile);
    const record = JSON.parse((db.prepare('SELECT record FROM dream_runs WHERE id = ?').get(run.id) as { record: string }).record) as DreamRun;
    const written = record.writes.find((w) => w.file === 'MEMORY.md')!;
    record.writes.push({ ...written, outcome: 'writing', beforeSha256: written.afterSha256, afterSha256: 'f'.repeat(64), added: ['- A line that never reached the file.'], changed: [], removed: [] });
    db.prepare('UPDATE dream_runs SET record = ? WHERE id = ?').run(JSON.stringify(record), run.id);
    db.close();

    const rolled = await service.invoke('dream.rollback', { runId: run.id });
    expect(read('MEMORY.md')).not.toBe(landed);
    expect(rolled.rolledBack?.files?.find((f) => f.file === 'MEMORY.md')?.mode).toBe('restored');
    expect(read('MEMORY.md')).toBe(before);
  });

  it('rollback after the person edited MEMORY.md removes exactly the run’s lines and keeps their edit', async () => {
    const { service, clock } = await setup();
    await recallOver(service, clock, PRODUCTION_RECALLS);
    const run = await dream(service);
    const edited = read('MEMORY.md').replace('- Keep the gateway on loopback.', '- Keep the gateway on loopback, always.') + '- A note the person added afterwards.\n';
    fs.writeFileSync(path.join(ws!.root, 'MEMORY.md'), edited);
    const rolled = await service.invoke('dream.rollback', { runId: run.id });
    expect(rolled.rolledBack?.mode).toBe('lines-removed');
    expect(read('MEMORY.md')).toBe('# Long-Term Memory\n\n- Keep the gateway on loopback, always. <!-- importance: 9 -->\n\n- A note the person added afterwards.\n');
  });

  it('pre-images are listed and restorable; restoring keeps the current content as a new pre-image', async () => {
    const { service, clock } = await setup();
    await recallOver(service, clock, PRODUCTION_RECALLS);
    await dream(service);
    const after = read('MEMORY.md');
    const { preImages } = await service.invoke('dream.preimages', { file: 'MEMORY.md' });
    expect(preImages).toHaveLength(1);
    const restored = await service.invoke('dream.restore', { preImageId: preImages[0]!.id });
    expect(read('MEMORY.md')).toBe(NOTES['MEMORY.md']);
    const list = await service.invoke('dream.preimages', {});
    expect(list.preImages.map((p) => p.id)).toContain(restored.savedAs);
    await service.invoke('dream.restore', { preImageId: restored.savedAs! });
    expect(read('MEMORY.md')).toBe(after);
    await expect(service.invoke('dream.restore', { preImageId: 'preimage:nope.md' })).rejects.toThrow(/No pre-image/);
  });

  it('MEMORY.md edited during the sweep is not overwritten; the run records why', async () => {
    const { service, clock } = await setup();
    await recallOver(service, clock, PRODUCTION_RECALLS);
    const editedByPerson = NOTES['MEMORY.md'] + '- Typed in an editor while dreaming ran.\n';
    const stop = service.onDidEmitEvent((e) => {
      if (e.type === 'dream-progress' && e.phase === 'write' && e.done === 0) fs.writeFileSync(path.join(ws!.root, 'MEMORY.md'), editedByPerson);
    });
    const run = await dream(service);
    stop();
    expect(read('MEMORY.md')).toBe(editedByPerson);
    const write = run.writes.find((w) => w.file === 'MEMORY.md')!;
    expect(write.outcome).toBe('aborted');
    expect(write.reason).toMatch(/MEMORY\.md changed on disk after it was read .*not overwritten/);
    expect(run.candidates.find((c) => c.key === 'memory/2026-11-27.md:3:3')?.outcome).toBe('not-written');
    // Still staged: the next sweep writes it.
    const next = await dream(service);
    expect(next.candidates.find((c) => c.key === 'memory/2026-11-27.md:3:3')?.outcome).toBe('promoted');
    expect(read('MEMORY.md').startsWith(editedByPerson)).toBe(true);
  });

  it('a MEMORY.md over its budget (hand-written text) gets no promotions, with a clear reason', async () => {
    const big = '# Long-Term Memory\n\n' + Array.from({ length: 300 }, (_, i) => `- Hand-written fact number ${i} about the garden and its plants.`).join('\n') + '\n';
    const { service, clock } = await setup({ ...NOTES, 'MEMORY.md': big });
    await recallOver(service, clock, PRODUCTION_RECALLS);
    const run = await dream(service);
    expect(read('MEMORY.md')).toBe(big);
    expect(run.writes.find((w) => w.file === 'MEMORY.md')).toMatchObject({ outcome: 'aborted' });
    expect(run.writes.find((w) => w.file === 'MEMORY.md')?.reason).toMatch(/over its 10000-character budget/);
  });

  it('review before writing stages promotions as proposals until approved', async () => {
    const { service, clock } = await setup();
    await service.invoke('settings.set', { patch: { dreaming: { reviewBeforeWriting: true } } });
    await recallOver(service, clock, PRODUCTION_RECALLS);
    const run = await dream(service);
    expect(run.promoted).toEqual([expect.objectContaining({ candidateKey: 'memory/2026-11-27.md:3:3', decision: 'proposed' })]);
    expect(read('MEMORY.md')).toBe(NOTES['MEMORY.md']);
    await service.invoke('dream.review', { runId: run.id, candidateKey: 'memory/2026-11-27.md:3:3', decision: 'approve' });
    expect(read('MEMORY.md')).toContain('- Moved the production deploy target');
    const got = await service.invoke('dream.get', { runId: run.id });
    expect(got.promoted[0]!.decision).toBe('approved');
  });

  it('imported memory is always staged for review, never written automatically', async () => {
    const { service, clock } = await setup({
      ...NOTES,
      'memory/imports/hermes/default/MEMORY.md': 'The billing service retries failed invoices every six hours.\n',
    });
    await recallOver(service, clock, [
      { query: 'billing retries failed invoices', daysAgo: 2 },
      { query: 'how often are invoices retried', daysAgo: 1 },
      { query: 'invoice retry interval six hours', daysAgo: 0 },
    ]);
    const run = await dream(service, { thresholds: { minScore: 0 } });
    const imported = run.candidates.find((c) => c.imported)!;
    expect(imported.outcome).toBe('proposed');
    expect(read('MEMORY.md')).not.toContain('billing service');
  });

  it('runs are listed newest first with the schedule; an unknown run is a clear error', async () => {
    const { service, clock } = await setup();
    await recallOver(service, clock, PRODUCTION_RECALLS);
    const first = await dream(service, { dryRun: true });
    const second = await dream(service);
    const { runs, schedule } = await service.invoke('dream.runs', {});
    expect(runs.map((r) => r.id)).toEqual([second.id, first.id]);
    expect(schedule).toMatchObject({ enabled: true, time: '03:00' });
    await expect(service.invoke('dream.get', { runId: 'dream:missing' })).rejects.toThrow(/No dream run dream:missing/);
  });
  it('keeps a candidate for a week after its last recall: recalled 4–6 days ago it is promoted, 8–10 days ago it has left the queue', async () => {
    const sweepAt = new Date(2026, 10, 29, 3, 0, 0).getTime();
    const recalledDaysAgo = async (days: number[]) => {
      ws = createTempWorkspace(NOTES);
      // The notes were written 12 days before the sweep: only recall can keep them candidates.
      const written = new Date(sweepAt - 12 * DAY_MS);
      for (const rel of Object.keys(NOTES)) fs.utimesSync(path.join(ws.root, rel), written, written);
      const clock = testClock(sweepAt - 12 * DAY_MS);
      service = openService(ws, { now: clock.now });
      await service.sync(false);
      clock.set(sweepAt);
      await recallOver(service, clock, PRODUCTION_RECALLS.map((r, i) => ({ query: r.query, daysAgo: days[i % days.length]! })));
      const run = await dream(service);
      await service.close();
      ws.cleanup();
      service = null;
      ws = null;
      return run.candidates.find((c) => c.key === 'memory/2026-11-27.md:3:3');
    };
    expect((await recalledDaysAgo([6, 5, 4]))?.outcome).toBe('promoted');
    expect(await recalledDaysAgo([10, 9, 8])).toBeUndefined();
  });
});
