import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SearchResult } from '../src/contract/index.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { InProcessAgentCaller } from '../src/agents/mcp/inProcessAgentCaller.js';
import { localDay } from '../src/platform/localDay.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

/*
 * Markers an agent hides in a note (`<!-- importance: 10 -->`, `<!-- trigger: … -->`) are
 * metadata only when the person writes them: in an agent's note they are kept, visibly, and
 * change nothing about how it ranks.
 */

const NOW = new Date(2026, 5, 15, 12, 0, 0).getTime();
const DAILY = `memory/${localDay(NOW)}.md`;
const MARKERS = '<!-- importance: 10 --> <!-- trigger: backup window -->';

let ws: TempWorkspace | null = null;
let caller: InProcessAgentCaller | null = null;
let service: MemoryService | null = null;
afterEach(async () => {
  if (caller) await caller.close(); // closes the service it was given
  else await service?.close();
  ws?.cleanup();
  caller = service = ws = null;
});

async function topHit(query: string, pathWanted: string): Promise<SearchResult> {
  const { results } = await service!.invoke('memory.search', { query, limit: 5 });
  const hit = results.find((r) => r.path === pathWanted);
  expect(hit, `no result from ${pathWanted} for "${query}"`).toBeDefined();
  return hit!;
}

describe('markers in an agent’s note', () => {
  it('do not set importance or triggers for search, while the same markers in the person’s note do', async () => {
    ws = createTempWorkspace({
      'MEMORY.md': '# Memory\n',
      'memory/2026-06-01.md': `# 2026-06-01\n\n- The garden shed backup window is Sunday night. ${MARKERS}\n`,
    });
    service = openService(ws, { now: () => NOW });
    const { token } = await service.invoke('agents.add', { name: 'scribe', write: true });
    caller = await InProcessAgentCaller.open(service, token);
    await caller.call('memory.store', { text: `The atlas NAS backup window is 02:00 nightly. ${MARKERS}` });
    await service.sync(false);

    const agents = await topHit('atlas NAS backup window', DAILY);
    expect(agents.origin).toBe('agent');
    expect(agents.breakdown).toMatchObject({ importance: 1, trigger: 1 });
    const persons = await topHit('garden shed backup window', 'memory/2026-06-01.md');
    expect(persons.origin).toBe('owner');
    expect(persons.breakdown).toMatchObject({ importance: 1.25, trigger: 1.25 });

    // Nothing the agent sent is lost: its markers are in the note, escaped so they read as text.
    const line = fs.readFileSync(path.join(ws.root, DAILY), 'utf8').split('\n').find((l) => l.includes('atlas NAS'))!;
    expect(line).toBe('- The atlas NAS backup window is 02:00 nightly. <\\!-- importance: 10 --> <\\!-- trigger: backup window -->');
  });

  it('are recognised as the same note when stored again', async () => {
    ws = createTempWorkspace({ 'MEMORY.md': '# Memory\n' });
    service = openService(ws, { now: () => NOW });
    const { token } = await service.invoke('agents.add', { name: 'scribe', write: true });
    caller = await InProcessAgentCaller.open(service, token);
    const text = 'Rotate the restic key every spring. <!-- importance: 9 -->';
    const first = (await caller.call('memory.store', { text })) as { line: number; stored: boolean };
    const again = (await caller.call('memory.store', { text })) as { stored: boolean; duplicateOf: { line: number } | null };
    expect(first.stored).toBe(true);
    expect(again).toMatchObject({ stored: false, duplicateOf: { line: first.line } });
  });
});
