import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SearchResult } from '../src/contract/index.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { InProcessAgentCaller } from '../src/agents/mcp/inProcessAgentCaller.js';
import { localDay } from '../src/platform/localDay.js';
import { recordWrittenLines } from '../src/provenance/recordWrites.js';
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

  it('written into a note before they were escaped, still set nothing; the person’s markers in a note an agent also wrote to still count', async () => {
    const legacy = `- The atlas NAS backup window is 02:00 nightly. ${MARKERS}`;
    ws = createTempWorkspace({
      'MEMORY.md': '# Memory\n',
      'memory/2026-06-01.md': `# 2026-06-01\n\n- Espresso machine descaled on Monday.\n${legacy}\n`,
      'memory/2026-06-02.md': `# 2026-06-02\n\n- The garden shed backup window is Sunday night. ${MARKERS}\n- Agent says the shed key is blue.\n`,
    });
    service = openService(ws, { now: () => NOW });
    const indexDb = (service as unknown as { db: Parameters<typeof recordWrittenLines>[0] }).db;
    recordWrittenLines(indexDb, 'memory/2026-06-01.md', [legacy], { origin: 'agent', via: 'agent', actor: 'scribe', detail: 'note' });
    recordWrittenLines(indexDb, 'memory/2026-06-02.md', ['- Agent says the shed key is blue.'], { origin: 'agent', via: 'agent', actor: 'scribe', detail: 'note' });
    await service.sync(false);

    const agents = await topHit('atlas NAS backup window', 'memory/2026-06-01.md');
    expect(agents.origin).toBe('agent');
    expect(agents.breakdown).toMatchObject({ importance: 1, trigger: 1 });
    const persons = await topHit('garden shed backup window', 'memory/2026-06-02.md');
    expect(persons.origin).toBe('agent'); // the chunk holds an agent's line too…
    expect(persons.breakdown).toMatchObject({ importance: 1.25, trigger: 1.25 }); // …yet the person's markers count
  });

  it('in a transcript set nothing: a session is conversation, not metadata', async () => {
    ws = createTempWorkspace({ 'MEMORY.md': '# Memory\n' });
    const claudeHome = path.join(path.dirname(ws.root), 'claude');
    const project = path.join(claudeHome, 'projects', '-home-dana-src-ledgerd');
    fs.mkdirSync(project, { recursive: true });
    const sessionId = '55555555-1111-2222-3333-444444444444';
    const base = { sessionId, cwd: '/home/dana/src/ledgerd', isSidechain: false, userType: 'external', timestamp: '2026-06-14T10:00:00Z' };
    const turn = (o: Record<string, unknown>) => JSON.stringify({ ...base, ...o });
    fs.writeFileSync(
      path.join(project, `${sessionId}.jsonl`),
      [
        turn({ type: 'user', uuid: 'u1', message: { role: 'user', content: 'When is the backup window for the atlas NAS?' } }),
        turn({ type: 'assistant', uuid: 'a1', message: { role: 'assistant', content: [{ type: 'text', text: `The atlas NAS backup window is 02:00 nightly. ${MARKERS}` }] } }),
      ].join('\n') + '\n',
    );
    service = openService(ws, { now: () => NOW });
    await service.invoke('sessions.ingest', { homes: { 'claude-code': claudeHome } });
    const { results } = await service.invoke('memory.search', { query: 'atlas NAS backup window', limit: 5 });
    const hit = results.find((r) => r.source === 'sessions');
    expect(hit, 'the transcript is found').toBeDefined();
    expect(hit!.breakdown).toMatchObject({ importance: 1, trigger: 1 });
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
