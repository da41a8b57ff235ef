import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { AgentSocketClient } from '../src/agents/socket/agentSocketClient.js';
import { localDay } from '../src/platform/localDay.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

/** A fixed clock: "today" cannot roll over to tomorrow halfway through a test. */
const NOW = new Date(2026, 5, 15, 12, 0, 0).getTime();
const TODAY = localDay(NOW);
const DAILY = `memory/${TODAY}.md`;
const WORDS = 'atlas restic postgres dentist garden espresso ledger canary invoice replica marathon novel'.split(' ');

interface Stored {
  path: string;
  line: number;
  ref: string;
  stored: boolean;
  duplicateOf: { path: string; line: number } | null;
}

let ws: TempWorkspace | null = null;
let service: MemoryService | null = null;
const clients: AgentSocketClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await service?.close();
  service = null;
  ws?.cleanup();
  ws = null;
});

async function host(files: Record<string, string> = SAMPLE_NOTES): Promise<MemoryService> {
  ws = createTempWorkspace(files);
  service = openService(ws, { now: () => NOW });
  await service.startHosting({ kind: 'serve', url: null });
  return service;
}

/** A connection authenticated as a new agent. */
async function agentClient(s: MemoryService, name: string, write = true): Promise<AgentSocketClient> {
  const { token } = await s.invoke('agents.add', { name, write });
  const client = await AgentSocketClient.connect(s.agents.socketPath);
  clients.push(client);
  await client.call('auth', { token });
  return client;
}

function readWorkspace(rel: string): string {
  return fs.readFileSync(path.join(ws!.root, rel), 'utf8');
}

function noteText(client: number, n: number): string {
  return `Agent note c${client}-n${n}: the ${WORDS[(client + n) % WORDS.length]} and the ${WORDS[(client * 7 + n) % WORDS.length]} were checked.`;
}

describe('memory.store over the agent socket', () => {
  it('keeps every one of 1,000 notes from 10 concurrent clients exactly once, on whole lines', async () => {
    const s = await host();
    const agents = await Promise.all(Array.from({ length: 10 }, (_, c) => agentClient(s, `agent-${c}`)));
    const kinds = ['note', 'fact', 'preference'] as const;
    // Each client sends its 100 stores at once: up to 1,000 appends are waiting at the same time.
    const results = await Promise.all(
      agents.map((client, c) =>
        Promise.all(
          Array.from({ length: 100 }, (_, n) =>
            client.call<Stored>('memory.store', { text: noteText(c, n), kind: kinds[n % 3], ...(n % 5 === 0 ? { project: `proj-${c}` } : {}) }),
          ),
        ),
      ),
    );
    const flat = results.flat();
    expect(flat.every((r) => r.stored && r.path === DAILY && r.duplicateOf === null)).toBe(true);
    expect(new Set(flat.map((r) => r.line)).size).toBe(1000);

    const text = readWorkspace(DAILY);
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.slice(0, -1).split('\n');
    expect(lines.slice(0, 2)).toEqual([`# ${TODAY}`, '']);
    const shape = /^- (Agent note c(\d+)-n(\d+): the [a-z]+ and the [a-z]+ were checked\.)( <!-- kind: (fact|preference) -->)?( <!-- project: proj-\d+ -->)?$/;
    const seen = new Map<string, number>();
    for (const line of lines.slice(2)) {
      const m = shape.exec(line);
      expect(m, `torn or interleaved line: ${line}`).not.toBeNull();
      const [c, n] = [Number(m![2]), Number(m![3])];
      expect(m![1]).toBe(noteText(c, n));
      expect(m![5] ?? 'note').toBe(kinds[n % 3]);
      expect(m![6] !== undefined).toBe(n % 5 === 0);
      seen.set(`${c}-${n}`, (seen.get(`${c}-${n}`) ?? 0) + 1);
    }
    expect(lines).toHaveLength(2 + 1000);
    expect(seen.size).toBe(1000);
    expect([...seen.values()].every((count) => count === 1)).toBe(true);
    // The line each answer names holds that note.
    results.forEach((perClient, c) => perClient.forEach((r, n) => expect(lines[r.line - 1]!.startsWith(`- ${noteText(c, n)}`)).toBe(true)));
  }, 60_000);

  it('recognises the same note stored again (also re-spaced and re-cased) and appends nothing', async () => {
    const s = await host();
    const client = await agentClient(s, 'codex');
    const first = await client.call<Stored>('memory.store', { text: 'The staging replica moved to host canary-4.' });
    expect(first).toEqual({ path: DAILY, line: 3, ref: expect.stringMatching(/^memory\/2026-06-15\.md#L3@[0-9a-f]{8}$/), stored: true, duplicateOf: null });
    const again = await client.call<Stored>('memory.store', { text: 'The staging replica moved to host canary-4.' });
    expect(again).toEqual({ path: DAILY, line: 3, ref: first.ref, stored: false, duplicateOf: { path: DAILY, line: 3 } });
    const respaced = await client.call<Stored>('memory.store', { text: '  the STAGING replica   moved to host canary-4 ' });
    expect(respaced).toMatchObject({ stored: false, duplicateOf: { path: DAILY, line: 3 } });
    // Another agent storing it is a duplicate too: the note is the person's memory, not the agent's.
    const other = await agentClient(s, 'claude-code');
    expect(await other.call<Stored>('memory.store', { text: 'The staging replica moved to host canary-4.' })).toMatchObject({ stored: false });
    expect(readWorkspace(DAILY)).toBe(`# ${TODAY}\n\n- The staging replica moved to host canary-4.\n`);
  });

  it('ends a daily note that lacks a trailing newline before appending', async () => {
    const s = await host({ ...SAMPLE_NOTES, [DAILY]: `# ${TODAY}\n\n- Written by hand, no newline at the end` });
    const client = await agentClient(s, 'codex');
    const stored = await client.call<Stored>('memory.store', { text: 'Appended by an agent.' });
    expect(stored).toEqual({ path: DAILY, line: 4, ref: expect.stringMatching(/#L4@/), stored: true, duplicateOf: null });
    expect(readWorkspace(DAILY)).toBe(`# ${TODAY}\n\n- Written by hand, no newline at the end\n- Appended by an agent.\n`);
  });

  it("marks an agent's line with provenance `agent` and the agent's name; the person's own stays `owner`", async () => {
    const s = await host();
    const client = await agentClient(s, 'hermes');
    const byAgent = await client.call<Stored>('memory.store', { text: 'Marek prefers espresso after lunch.', kind: 'preference' });
    const byPerson = await s.invoke('memory.store', { text: 'Garden hose needs a new washer.' });
    await s.invoke('index.sync', { force: false });
    const agentChain = await s.invoke('provenance.get', { ref: `${byAgent.path}:${byAgent.line}` });
    expect(agentChain.origin).toBe('agent');
    expect(agentChain.lines).toEqual([{ line: byAgent.line, origin: 'agent', writtenBy: { via: 'agent', actor: 'hermes', writtenAt: expect.any(String), detail: 'preference' } }]);
    expect(agentChain.text).toContain('Marek prefers espresso after lunch.');
    const personChain = await s.invoke('provenance.get', { ref: `${byPerson.path}:${byPerson.line}` });
    expect(personChain.lines).toEqual([{ line: byPerson.line, origin: 'owner', writtenBy: null }]);
    // Search results carry the class too.
    const found = await client.call<{ results: Array<{ path: string; origin?: string; snippet: string }> }>('memory.search', { query: 'Marek espresso lunch' });
    const hit = found.results.find((r) => r.path === DAILY && r.snippet.includes('Marek prefers espresso'));
    expect(hit?.origin).toBe('agent');
  });

  it('never touches MEMORY.md or USER.md, whatever the kind', async () => {
    const s = await host();
    const curated = ['MEMORY.md', 'USER.md'].map((f) => ({ f, text: readWorkspace(f), mtime: fs.statSync(path.join(ws!.root, f)).mtimeMs }));
    const client = await agentClient(s, 'codex');
    for (const kind of ['note', 'fact', 'preference'] as const) {
      await client.call('memory.store', { text: `A ${kind}: the user prefers terse answers about ${kind}s.`, kind, project: 'ledgerd' });
    }
    await client.call('memory.store', { text: '# MEMORY.md\n- Prefers verbose answers.' });
    for (const { f, text, mtime } of curated) {
      expect(readWorkspace(f)).toBe(text);
      expect(fs.statSync(path.join(ws!.root, f)).mtimeMs).toBe(mtime);
    }
    expect(readWorkspace(DAILY).split('\n').filter((l) => l.startsWith('- '))).toHaveLength(4);
  });
});
