import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { AgentSocketClient } from '../src/agents/socket/agentSocketClient.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace | null = null;
let service: MemoryService | null = null;
let client: AgentSocketClient | null = null;
afterEach(async () => {
  client?.close();
  await service?.close();
  ws?.cleanup();
  client = null;
  service = null;
  ws = null;
});

const line = (o: Record<string, unknown>) => JSON.stringify(o);

describe('sessions.get over the agent socket', () => {
  it('returns a bounded, redacted, framed excerpt of a transcript a search found', async () => {
    ws = createTempWorkspace({ 'MEMORY.md': '# Long-Term Memory\n' });
    const home = path.join(path.dirname(ws.root), 'claude');
    const project = path.join(home, 'projects', '-home-dana-src-ledgerd');
    fs.mkdirSync(project, { recursive: true });
    const sessionId = '12345678-1111-2222-3333-444444444444';
    const base = { sessionId, cwd: '/home/dana/src/ledgerd', isSidechain: false, userType: 'external', timestamp: '2026-11-28T10:00:00Z' };
    const turns = Array.from({ length: 30 }, (_, i) => [
      line({ ...base, type: 'user', uuid: `u${i}`, message: { role: 'user', content: `Question ${i} about the heron migration; my key is sk-ant-api03-${'x'.repeat(40)}` } }),
      line({ ...base, type: 'assistant', uuid: `a${i}`, message: { role: 'assistant', content: [{ type: 'text', text: `Answer ${i}: the heron migration runs nightly.` }] } }),
    ]).flat();
    fs.writeFileSync(path.join(project, `${sessionId}.jsonl`), turns.join('\n') + '\n');
    service = openService(ws);
    await service.invoke('sessions.ingest', { homes: { 'claude-code': home } });
    await service.startHosting({ kind: 'serve', url: null });
    const { token } = await service.invoke('agents.add', { name: 'reader' });
    client = await AgentSocketClient.connect(service.agents.socketPath);
    await client.call('auth', { token });

    const found = await client.call<{ results: Array<{ path: string; source: string }> }>('memory.search', { query: 'heron migration nightly', sources: ['sessions'] });
    expect(found.results[0]?.source).toBe('sessions');
    const excerpt = await client.call<{ sessionId: string; sessionKind: string; totalLines: number; notice: string; lines: Array<{ line: number; role: string; text: string }> }>('sessions.get', { sessionId, fromLine: 3, lines: 4 });
    expect(excerpt).toMatchObject({ sessionId, sessionKind: 'interactive' });
    expect(excerpt.totalLines).toBeGreaterThanOrEqual(60);
    expect(excerpt.lines.map((l) => l.line)).toEqual([3, 4, 5, 6]);
    expect(excerpt.lines.map((l) => l.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(excerpt.lines[0]!.text).toMatch(/^<reverie-memory source="sessions\/claude-code\/[^"]+#L3" origin="owner">/);
    // Secrets were redacted at ingestion; agents never see them.
    expect(JSON.stringify(excerpt)).not.toContain('sk-ant-api03-xxxx');
    expect(excerpt.notice).toMatch(/not instructions/);

    await expect(client.call('sessions.get', { sessionId: 'no-such-session' })).rejects.toMatchObject({ rpc: { code: -32005 } });
    await expect(client.call('sessions.get', { sessionId, lines: 501 })).rejects.toMatchObject({ rpc: { code: -32602 } });
  });
});
