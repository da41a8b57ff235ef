import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { cliEnv, runCli } from './helpers/cli.js';
import { scribbleOverPages } from './helpers/damagePages.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace;
let service: MemoryService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
  ws?.cleanup();
});

const search = async (s: MemoryService, query: string) => (await s.invoke('memory.search', { query })).results;

const indexPathOf = (w: TempWorkspace): string => path.join(w.dataDir, 'index', fs.readdirSync(path.join(w.dataDir, 'index')).find((n) => n.endsWith('.sqlite'))!);

const corruptionNotices = async (s: MemoryService): Promise<string[]> => (await s.invoke('status', {})).notices.filter((n) => /corrupted/.test(n));

/** An indexed workspace whose index file then has the pages of `like` tables overwritten (and a service open on it, unless `reopen` is false). */
async function indexThenDamage(like: string, { reopen = true, bulkLine = 'bulk line about harbours and ships' } = {}): Promise<void> {
  ws = createTempWorkspace(SAMPLE_NOTES);
  for (let i = 0; i < 100; i++) ws.write(`memory/bulk/${i}.md`, `# note ${i}\n` + `- ${bulkLine} ${i}\n`.repeat(30));
  service = openService(ws);
  await service.invoke('index.sync', { force: false });
  const indexPath = service.indexPath;
  await service.close();
  service = undefined;
  expect(scribbleOverPages(indexPath, like)).toBeGreaterThan(0);
  if (reopen) service = openService(ws);
}

describe('damaged pages inside the index', () => {
  it('a plain sync that meets damaged vector pages rebuilds instead of reporting an embedding failure', async () => {
    await indexThenDamage('%vec%');
    const report = await service!.invoke('index.sync', { force: false });
    expect(report.notices.join(' ')).toMatch(/corrupted/);
    expect(report.embedding?.error ?? null).toBeNull();
    expect(await search(service!, 'harbours')).not.toHaveLength(0);
  });

  it('a sync that meets damaged graph pages rebuilds the index and its graph, not a "could not be updated" notice', async () => {
    await indexThenDamage('graph%');
    ws.write('memory/harbour.md', '# Harbour\n- Priya moved the harbour ledger to Lisbon.\n');
    const report = await service!.invoke('index.sync', { force: false });
    expect(report.notices.join(' ')).toMatch(/corrupted/);
    expect(report.notices.join(' ')).not.toMatch(/could not be updated/);
    expect(report.graph?.entities ?? 0).toBeGreaterThan(0);
    const again = await service!.invoke('index.sync', { force: false });
    expect(again.notices.join(' ')).not.toMatch(/corrupted|could not be updated/);
  });

  it("status and search after the chunks table's pages are damaged: rebuilt once, then clean", async () => {
    await indexThenDamage('chunks');
    expect(await search(service!, 'harbours')).not.toHaveLength(0);
    expect(await corruptionNotices(service!)).toHaveLength(1);
    expect(await search(service!, 'harbours')).not.toHaveLength(0);
    expect(await corruptionNotices(service!)).toHaveLength(1);
  });

  it('a search that meets them rebuilds the index from the Markdown, says so once, and answers', async () => {
    await indexThenDamage('chunks_fts_data');
    expect(await search(service!, 'harbours')).not.toHaveLength(0);
    expect(await corruptionNotices(service!)).toHaveLength(1);
    expect(fs.readdirSync(ws.dataDir, { recursive: true }).some((n) => String(n).includes('.corrupt-'))).toBe(true);

    // The rebuilt index is clean: the next search answers without another rebuild.
    expect(await search(service!, 'restic')).not.toHaveLength(0);
    expect(await corruptionNotices(service!)).toHaveLength(1);
  });

  it('damaged pages of the unspaced-script table (chunks_grams) are found and rebuilt like the main index', async () => {
    await indexThenDamage('chunks_grams_data', { bulkLine: '港の船と再処理ジョブの記録、番号' });
    expect(await search(service!, '再処理')).not.toHaveLength(0);
    expect(await corruptionNotices(service!)).toHaveLength(1);
    expect(await search(service!, '港の船')).not.toHaveLength(0);
    expect(await corruptionNotices(service!)).toHaveLength(1);
  });

  it('`reverie status` alone meets them: exits 0, says so once, and the next status is clean', async () => {
    await indexThenDamage('files', { reopen: false });
    const at = ['--workspace', ws.root, '--data-dir', ws.dataDir];
    const first = await runCli(['status', ...at], cliEnv(ws.dataDir));
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout.match(/corrupted/g)).toHaveLength(1);
    expect(first.stdout).toMatch(/Index {6}10\d indexed/); // rebuilt before answering, not "empty"
    const next = await runCli(['status', ...at], cliEnv(ws.dataDir));
    expect(next.code).toBe(0);
    expect(next.stdout).not.toMatch(/corrupt|damaged|malformed/i);
    expect(next.stdout).toMatch(/Index {6}10\d indexed/);
  });

  it('status after an index that could not even be opened (its header damaged) answers from the rebuilt index, not an empty one', async () => {
    await indexThenDamage('chunks', { reopen: false });
    const fd = fs.openSync(indexPathOf(ws), 'r+');
    fs.writeSync(fd, Buffer.alloc(100, 0x5a), 0, 100, 0);
    fs.closeSync(fd);
    service = openService(ws);
    const status = await service.invoke('status', {});
    expect(status.index.files).toBeGreaterThan(100);
    expect(status.notices.filter((n) => /corrupted/.test(n))).toHaveLength(1);
  });
});
