import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import type { EngineEvent } from '../src/contract/index.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { COMPACT_AFTER_UPGRADE, isCompactionPending } from '../src/index/compactAfterUpgrade.js';
import type { IndexService } from '../src/index/indexService.js';
import { graphSnapshot, indexDb } from './helpers/graphSnapshot.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace | undefined;
let service: MemoryService | undefined;
afterEach(async () => {
  await service?.close();
  ws?.cleanup();
  service = undefined;
  ws = undefined;
});

/**
 * Notes whose lines tag many projects at once: tens of thousands of pairs named together once
 * (the lone pairs an index of the old layout stored, several MB), and one fact to search for.
 */
function notes(): Record<string, string> {
  const files: Record<string, string> = { 'MEMORY.md': '# Memory\n\n- Backups run nightly with restic to the NAS.\n' };
  let seed = 7;
  const next = () => (seed = (seed * 48271) % 2147483647);
  for (let day = 1; day <= 28; day++) {
    const lines: string[] = [];
    for (let line = 0; line < 16; line++) {
      const tags = new Set<string>();
      while (tags.size < 20) tags.add(`#p${next() % 3000}`);
      lines.push(`- Review of ${[...tags].join(' ')}`);
    }
    files[`memory/2026-02-${String(day).padStart(2, '0')}.md`] = `# 2026-02-${String(day).padStart(2, '0')}\n\n${lines.join('\n')}\n`;
  }
  return files;
}

/** The index as the previous version left it: every pair stored (lone ones too), at schema 13, its file checkpointed. */
function toPreviousLayout(file: string): void {
  const old = new Database(file);
  old.exec(`
    INSERT INTO graph_cooccurrence (subject_id, object_id, tool, origin, entries, undated, first_observed)
    SELECT x.entity_id, y.entity_id, g.tool, g.origin, count(*), sum(g.observed IS NULL), min(g.observed)
    FROM graph_mentions x JOIN graph_mentions y ON y.entry_id = x.entry_id AND y.cooccurs = 1 AND y.entity_id > x.entity_id JOIN graph_entries g ON g.id = x.entry_id
    WHERE x.cooccurs = 1 GROUP BY 1, 2, 3, 4 ON CONFLICT DO NOTHING;
    INSERT INTO graph_claims (subject_id, predicate, object_id, literal, confidence, valid_from)
    SELECT subject_id, 'mentioned_with', object_id, NULL, 0.5, min(first_observed) FROM graph_cooccurrence GROUP BY subject_id, object_id ON CONFLICT DO NOTHING;
  `);
  old.prepare('DELETE FROM meta WHERE key = ?').run(COMPACT_AFTER_UPGRADE);
  old.pragma('user_version = 13');
  old.pragma('wal_checkpoint(TRUNCATE)');
  old.close();
}

describe('compaction after an upgrade', () => {
  it('gives an upgraded index its freed pages back once, in the background, while search keeps answering', async () => {
    ws = createTempWorkspace(notes());
    service = openService(ws);
    await service.invoke('index.sync', {});
    const file = service.indexPath;
    const graph = graphSnapshot(indexDb(service));
    const question = { query: 'restic backups NAS' };
    const answer = (await service.invoke('memory.search', question)).results.map((r) => r.path);
    expect(answer[0]).toBe('MEMORY.md');
    await service.close();
    toPreviousLayout(file);
    const oldBytes = fs.statSync(file).size;
    const storedBefore = new Database(file, { readonly: true });
    const lonePairs = storedBefore.prepare('SELECT count(*) FROM graph_cooccurrence WHERE entries = 1').pluck().get() as number;
    storedBefore.close();
    expect(lonePairs).toBeGreaterThan(20_000);

    service = openService(ws);
    const s = service;
    const d = indexDb(s);
    expect(isCompactionPending(d)).toBe(true);
    // Search answers at once after the upgrade, before any sync.
    expect((await s.invoke('memory.search', question)).results.map((r) => r.path)).toEqual(answer);

    // During the compaction (progress events say so), searches are made and must answer.
    const during: Array<Promise<string[]>> = [];
    const progress: number[] = [];
    s.onDidEmitEvent((event: EngineEvent) => {
      if (event.type !== 'derived-progress' || !event.progress.compaction) return;
      progress.push(event.progress.compaction.doneBytes);
      during.push(s.invoke('memory.search', question).then((r) => r.results.map((x) => x.path)));
    });
    await s.invoke('index.sync', {});
    expect(during.length).toBeGreaterThan(0);
    for (const paths of await Promise.all(during)) expect(paths).toEqual(answer);

    // The lone pairs were recounted away, their pages given back: the file shrank and is whole.
    expect(isCompactionPending(d)).toBe(false);
    expect(d.prepare('SELECT count(*) FROM graph_cooccurrence WHERE entries = 1').pluck().get()).toBe(0);
    const newBytes = fs.statSync(file).size;
    expect(newBytes).toBeLessThan(oldBytes * 0.7);
    expect(d.pragma('freelist_count', { simple: true })).toBeLessThan(16);
    expect(d.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(graphSnapshot(d)).toEqual(graph);
    expect((await s.invoke('memory.search', question)).results.map((r) => r.path)).toEqual(answer);
    expect((await s.invoke('status', {})).notices.some((n) => /was compacted from \d+ MB to \d+ MB/.test(n))).toBe(true);

    // Once: the next sync does not compact again.
    progress.length = 0;
    await s.invoke('index.sync', {});
    expect(progress).toEqual([]);
  });

  it('has a forget made during the compaction wait for it, then apply, instead of failing on the busy index', async () => {
    ws = createTempWorkspace(notes());
    service = openService(ws);
    await service.invoke('index.sync', {});
    expect((await service.invoke('memory.search', { query: 'restic backups NAS' })).results[0]?.path).toBe('MEMORY.md');
    await service.close();
    toPreviousLayout(service.indexPath);

    service = openService(ws);
    const s = service;
    // No SQLite wait at all: stands for a compaction longer than the 10 s busy timeout.
    indexDb(s).pragma('busy_timeout = 0');
    let forgotten: Promise<unknown> | null = null;
    let refused: Promise<unknown> | null = null;
    s.onDidEmitEvent((event: EngineEvent) => {
      if (event.type !== 'derived-progress' || !event.progress.compaction || forgotten) return;
      // Applied once the compaction is over (its request cleared), not while it holds the write lock.
      forgotten = s.invoke('forget', { path: 'MEMORY.md' }).then((report) => ({ ...report, compactionPending: isCompactionPending(indexDb(s)) }));
      refused = (s as unknown as { index: IndexService }).index.whenWritable(1).catch((error: unknown) => error);
    });
    await s.invoke('index.sync', {});
    expect(forgotten).not.toBeNull();
    expect(await forgotten).toMatchObject({ removed: { files: ['MEMORY.md'] }, compactionPending: false });
    expect(await refused).toMatchObject({ code: 'locked', message: expect.stringMatching(/is being compacted after an upgrade.*nothing was changed/) });
    expect(isCompactionPending(indexDb(s))).toBe(false);
    expect((await s.invoke('memory.search', { query: 'restic backups NAS' })).results.map((r) => r.path)).not.toContain('MEMORY.md');
  });

  it('a new index asks for no compaction', async () => {
    ws = createTempWorkspace({ 'memory/2026-03-01.md': '# 2026-03-01\n\n- Lunch with Jonas Berg.\n' });
    service = openService(ws);
    await service.invoke('index.sync', {});
    expect(isCompactionPending(indexDb(service))).toBe(false);
  });
});
