import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { HashEmbeddingProvider } from '../src/embed/hashProvider.js';
import { floatsToBlob } from '../src/index/vectorBlob.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';
import { unpackChunkText } from '../src/index/chunkText.js';

let ws: TempWorkspace | undefined;
let service: MemoryService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
  ws?.cleanup();
  ws = undefined;
});

const SUBJECTS = ['kettle', 'restic', 'atlas', 'dentist', 'ledgerd', 'heron', 'canal', 'piranesi', 'postgres', 'systemd', 'garden', 'tomato', 'bicycle', 'invoice', 'passport', 'violin'];
const VERBS = ['moved', 'fixed', 'booked', 'descaled', 'upgraded', 'watered', 'repaired', 'renewed', 'practised', 'reviewed'];
const WHEN = ['on Monday', 'before the trip', 'after standup', 'in the evening', 'last week', 'with Sam', 'for the release'];

/** A seeded generated workspace: 40 dated notes of short entries, so chunks share words in many combinations. */
function generatedNotes(seed: number): Record<string, string> {
  let state = seed;
  const next = (n: number): number => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return (state >>> 8) % n;
  };
  const files: Record<string, string> = {};
  for (let day = 1; day <= 40; day++) {
    const date = `2026-0${1 + Math.floor((day - 1) / 28)}-${String(1 + ((day - 1) % 28)).padStart(2, '0')}`;
    const lines = [`# ${date}`, ''];
    for (let i = 0; i < 12; i++) {
      lines.push(`- ${SUBJECTS[next(SUBJECTS.length)]} ${VERBS[next(VERBS.length)]} ${WHEN[next(WHEN.length)]}, and the ${SUBJECTS[next(SUBJECTS.length)]} ${VERBS[next(VERBS.length)]} too.`);
    }
    files[`memory/${date}.md`] = `${lines.join('\n')}\n`;
  }
  return files;
}

const QUERIES = ['kettle descaled', 'restic backups on atlas', 'dentist booked Monday', 'heron by the canal', 'postgres upgraded for the release', 'garden tomato watered', 'violin practised in the evening', 'passport renewed before the trip', 'bicycle repaired with Sam', 'invoice reviewed last week', 'piranesi', 'systemd'];

async function topTens(s: MemoryService): Promise<string[][]> {
  const lists: string[][] = [];
  for (const query of QUERIES) {
    const { results } = await s.invoke('memory.search', { query, limit: 10 });
    lists.push(results.map((r) => `${r.path}:${r.startLine} ${r.score.toFixed(6)} ${r.matchedBy.join('+')}`));
  }
  return lists;
}

describe('hash vectors recomputed from chunk text', () => {
  it('stores no hash floats, and searches exactly as an index with the floats stored does', async () => {
    ws = createTempWorkspace(generatedNotes(24));
    service = openService(ws);
    await service.invoke('index.sync', {});
    const status = await service.invoke('status', {});
    expect(status.embedding).toMatchObject({ provider: 'hash', vectorBackend: 'sqlite-vec' });
    expect(status.embedding.embedded).toBe(status.index.chunks);
    const recomputed = await topTens(service);
    expect(recomputed.flat().some((r) => r.includes('vector'))).toBe(true);
    const indexPath = service.indexPath;
    await service.close();
    service = undefined;

    // The previous layout: every hash vector's floats stored beside the bits.
    const db = new Database(indexPath);
    const [table] = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'vectors_*'").all() as Array<{ name: string }>).map((r) => r.name);
    expect(table).toBeDefined();
    const blobs = db.prepare(`SELECT count(*) AS n, sum(length(vector)) AS bytes FROM ${table}`).get() as { n: number; bytes: number };
    expect(blobs).toEqual({ n: status.index.chunks, bytes: 0 });
    const hash = new HashEmbeddingProvider();
    const put = db.prepare(`UPDATE ${table} SET vector = ? WHERE chunk_id = ?`);
    db.transaction(() => {
      for (const row of db.prepare(`SELECT v.chunk_id AS id, c.text FROM ${table} v JOIN chunks c ON c.id = v.chunk_id`).all() as Array<{ id: number; text: Buffer }>) {
        put.run(floatsToBlob(hash.embedSync(unpackChunkText(row.text))), row.id);
      }
    })();
    expect((db.prepare(`SELECT min(length(vector)) AS m FROM ${table}`).get() as { m: number }).m).toBeGreaterThan(0);
    db.close();

    service = openService(ws);
    await service.invoke('index.sync', {});
    expect(await topTens(service)).toEqual(recomputed);
  });

  it('vectors kept from earlier searches give the same results, also after notes changed, as a freshly opened engine', async () => {
    const files = generatedNotes(31);
    ws = createTempWorkspace(files);
    service = openService(ws);
    await service.invoke('index.sync', {});
    const first = await topTens(service);
    expect(await topTens(service)).toEqual(first); // the second pass reads the kept vectors
    // Rewrite every note with other lines: chunks (and maybe their ids) now hold other text.
    for (const [rel, text] of Object.entries(generatedNotes(57))) ws.write(rel, text);
    await service.invoke('index.sync', {});
    const afterEdit = await topTens(service);
    expect(afterEdit).not.toEqual(first);
    await service.close();
    service = openService(ws);
    await service.invoke('index.sync', {});
    expect(await topTens(service)).toEqual(afterEdit);
  });

  it('a chunk id that comes back with other text (the last note deleted, a new one written) gets its own vector', async () => {
    ws = createTempWorkspace({ 'memory/2026-01-01.md': '# 2026-01-01\n\n- The kettle was descaled on Monday.\n', 'memory/2026-01-02.md': '# 2026-01-02\n\n- Restic backups run nightly on atlas.\n' });
    service = openService(ws);
    await service.invoke('index.sync', {});
    const before = await service.invoke('memory.search', { query: 'restic backups atlas', limit: 5 });
    expect(before.results[0]?.path).toBe('memory/2026-01-02.md');
    ws.remove('memory/2026-01-02.md');
    await service.invoke('index.sync', {});
    ws.write('memory/2026-01-03.md', '# 2026-01-03\n\n- The violin was practised in the evening with Sam.\n');
    await service.invoke('index.sync', {});
    const query = { query: 'violin practised evening', limit: 5 };
    const kept = await service.invoke('memory.search', query);
    await service.close();
    service = openService(ws);
    await service.invoke('index.sync', {});
    const fresh = await service.invoke('memory.search', query);
    expect(kept.results.map((r) => [r.path, r.score])).toEqual(fresh.results.map((r) => [r.path, r.score]));
  });
});
