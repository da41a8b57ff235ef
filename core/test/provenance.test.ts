import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { recordWrittenLines } from '../src/provenance/recordWrites.js';
import { leastTrusted } from '../src/contract/index.js';
import { cliEnv, runCli } from './helpers/cli.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace;
let service: MemoryService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
  ws?.cleanup();
});

const db = (s: MemoryService) => (s as unknown as { db: Database.Database }).db;
const why = (s: MemoryService, ref: string) => s.invoke('provenance.get', { ref });

describe('provenance', () => {
  it('orders trust: untrusted < system < agent < owner', () => {
    expect(leastTrusted(['owner', 'agent'])).toBe('agent');
    expect(leastTrusted(['owner', 'system', 'agent'])).toBe('system');
    expect(leastTrusted(['agent', 'untrusted', 'owner'])).toBe('untrusted');
    expect(leastTrusted([])).toBe('owner');
  });

  it('marks lines Reverie wrote with their recorded class; the chunk takes the least trusted', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    service = openService(ws);
    await service.invoke('index.sync', {});
    expect((await why(service, 'memory/2026-04-05.md:3')).origin).toBe('owner');

    const agentLine = '- Agent note: Sam prefers async standups. (via claude-code)';
    ws.write('memory/2026-04-05.md', SAMPLE_NOTES['memory/2026-04-05.md'] + agentLine + '\n');
    recordWrittenLines(db(service), 'memory/2026-04-05.md', [agentLine], { origin: 'agent', via: 'agent', actor: 'claude-code' });
    await service.invoke('index.sync', {});

    const chain = await why(service, 'memory/2026-04-05.md:3-5');
    expect(chain.origin).toBe('agent');
    expect(chain.lines).toEqual([
      { line: 3, origin: 'owner', writtenBy: null },
      { line: 4, origin: 'owner', writtenBy: null },
      { line: 5, origin: 'agent', writtenBy: { via: 'agent', actor: 'claude-code', writtenAt: expect.any(String), detail: null } },
    ]);
    // Re-indenting the line keeps its class (normalised line hash).
    ws.write('memory/2026-04-05.md', SAMPLE_NOTES['memory/2026-04-05.md'] + '   ' + agentLine.replace(' ', '   ') + '\n');
    await service.invoke('index.sync', {});
    expect((await why(service, 'memory/2026-04-05.md:5')).origin).toBe('agent');

    const { results } = await service.invoke('memory.search', { query: 'async standups' });
    expect(results[0]?.path).toBe('memory/2026-04-05.md');
    expect((await why(service, results[0]!.id)).origin).toBe('agent');
  });

  it('explains bad references clearly', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    service = openService(ws);
    await service.invoke('index.sync', {});
    await expect(why(service, 'chunk:999999')).rejects.toMatchObject({ code: 'not-found' });
    await expect(why(service, 'memory/nope.md:1')).rejects.toMatchObject({ code: 'not-found' });
    await expect(why(service, 'no-line-number')).rejects.toMatchObject({ code: 'invalid-input' });
    await expect(why(service, 'MEMORY.md:0')).rejects.toMatchObject({ code: 'invalid-input' });
  });

  it('forgets a workspace file from the index without touching it, and keeps it out', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    service = openService(ws);
    await service.invoke('index.sync', {});
    const dry = await service.invoke('forget', { path: 'memory/2026-04-06.md', dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, removed: { files: ['memory/2026-04-06.md'], chunks: 1, vectors: 1 } });
    expect(await service.invoke('memory.search', { query: 'systemd units' })).toMatchObject({ results: [expect.anything()] });

    const done = await service.invoke('forget', { path: 'memory/2026-04-06.md' });
    expect(done.stillInWorkspace[0]?.path).toBe('memory/2026-04-06.md');
    expect((await service.invoke('memory.search', { query: 'systemd units' })).results).toEqual([]);
    await service.invoke('index.sync', {});
    expect((await service.invoke('memory.search', { query: 'systemd units' })).results).toEqual([]);
    const st = await service.invoke('status', {});
    expect(st.files.find((f) => f.path === 'memory/2026-04-06.md')).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^forgotten/) });
    expect(ws.root).toBeTruthy();
    await expect(service.invoke('forget', { path: 'memory/none.md' })).rejects.toMatchObject({ code: 'not-found' });
    await expect(service.invokeUnchecked('forget', {})).rejects.toMatchObject({ code: 'invalid-input' });
  });

  it('reverie why and reverie forget work from the command line', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    const env = cliEnv(ws.dataDir);
    expect((await runCli(['index', '--workspace', ws.root], env)).code).toBe(0);
    const whyOut = await runCli(['why', 'MEMORY.md:4', '--json', '--workspace', ws.root], env);
    expect(whyOut.code).toBe(0);
    expect(JSON.parse(whyOut.stdout)).toMatchObject({ path: 'MEMORY.md', origin: 'owner', source: 'memory' });
    const forgetOut = await runCli(['forget', '--path', 'USER.md', '--dry-run', '--workspace', ws.root], env);
    expect(forgetOut.code).toBe(0);
    expect(forgetOut.stdout).toContain('Would remove');
    expect((await runCli(['forget', '--workspace', ws.root], env)).code).toBe(1);
  });
});
