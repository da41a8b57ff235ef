import { afterEach, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../src/contract/index.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace;
let service: MemoryService;
afterEach(async () => {
  await service?.close();
  ws?.cleanup();
});

function nextReady(s: MemoryService): Promise<EngineEvent> {
  return new Promise((resolve) => {
    const off = s.onDidEmitEvent((e) => {
      if (e.type === 'index-ready') {
        off();
        resolve(e);
      }
    });
  });
}

describe('watcher', () => {
  it('keeps the index fresh while a host runs (debounced batches)', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    service = openService(ws);
    await service.startHosting({ kind: 'serve', url: null });
    await service.sync(false);
    const ready = nextReady(service);
    ws.write('memory/2026-04-08.md', '# 2026-04-08\n- saw a heron by the canal\n');
    ws.write('memory/2026-04-09.md', '# 2026-04-09\n- the heron came back\n');
    ws.remove('memory/2026-04-01.md');
    const event = await ready;
    expect(event).toMatchObject({ type: 'index-ready', report: { added: 2, removed: 1 } });
    const { results } = await service.invoke('memory.search', { query: 'heron' });
    expect(results.map((r) => r.path).sort()).toEqual(['memory/2026-04-08.md', 'memory/2026-04-09.md']);
  });
});
