import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { AgentSocketClient, type RpcFailure } from '../src/agents/socket/agentSocketClient.js';
import { RPC_ERRORS } from '../src/agents/socket/rpcErrors.js';
import { refusal } from './helpers/rpcRefusal.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

const services: MemoryService[] = [];
const clients: AgentSocketClient[] = [];
let ws: TempWorkspace;

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const s of services.splice(0)) await s.close();
  ws?.cleanup();
});

function localDate(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

async function hosted(): Promise<MemoryService> {
  ws = createTempWorkspace(SAMPLE_NOTES);
  const service = openService(ws);
  services.push(service);
  await service.sync(false);
  await service.startHosting({ kind: 'serve', url: null });
  return service;
}

async function agent(service: MemoryService, name: string, write = true): Promise<AgentSocketClient> {
  const { token } = await service.invoke('agents.add', { name, write });
  const client = await AgentSocketClient.connect(service.agents.socketPath);
  clients.push(client);
  await client.call('auth', { token });
  return client;
}


interface Stored {
  path: string;
  line: number;
  ref: string;
}

describe('agents edit and forget entries (memory.update, memory.forget)', () => {
  it('replaces an agent note in place, keeps its history, and refuses a stale ref with a conflict', async () => {
    const service = await hosted();
    const codex = await agent(service, 'codex');
    const stored = await codex.call<Stored>('memory.store', { text: 'The staging DB runs on port 5433.', kind: 'fact', project: 'ledgerd' });
    const daily = path.join(ws.root, stored.path);
    const before = fs.readFileSync(daily, 'utf8');
    const updated = await codex.call<{ outcome: string; ref: string; line: number }>('memory.update', { ref: stored.ref, text: 'The staging DB runs on port 6543. <!-- importance: 10 -->' });
    expect(updated.outcome).toBe('updated');
    const after = fs.readFileSync(daily, 'utf8');
    // Only that line changed; its list marker and Reverie's own annotations stay; a comment the agent sent stays inert.
    expect(after).toBe(before.replace('- The staging DB runs on port 5433. <!-- kind: fact --> <!-- project: ledgerd -->', '- The staging DB runs on port 6543. <\\!-- importance: 10 --> <!-- kind: fact --> <!-- project: ledgerd -->'));
    expect(updated.ref).not.toBe(stored.ref);

    const stale = await refusal(codex.call('memory.update', { ref: stored.ref, text: 'Port 7000.' }));
    expect(stale.code).toBe(RPC_ERRORS.conflict);
    expect(stale.message).toMatch(/changed by agent "codex"/);
    expect(fs.readFileSync(daily, 'utf8')).toBe(after);

    const { changes } = await codex.call<{ changes: Array<{ action: string; before: string; after: string | null }> }>('memory.recent', {});
    expect(changes.some((c) => c.action === 'updated' && c.before.includes('5433') && c.after?.includes('6543'))).toBe(true);
  });

  it('lets one of two agents updating the same entry at once win; the other gets a conflict', async () => {
    const service = await hosted();
    const writer = await agent(service, 'writer');
    const other = await agent(service, 'other');
    const stored = await writer.call<Stored>('memory.store', { text: 'The release train leaves on Tuesdays.' });
    const results = await Promise.allSettled([
      writer.call('memory.update', { ref: stored.ref, text: 'The release train leaves on Wednesdays.' }),
      other.call('memory.update', { ref: stored.ref, text: 'The release train leaves on Fridays.' }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((lost.reason as { rpc: RpcFailure }).rpc.code).toBe(RPC_ERRORS.conflict);
    const text = fs.readFileSync(path.join(ws.root, stored.path), 'utf8');
    expect((text.match(/The release train leaves on/g) ?? []).length).toBe(1);
  });

  it('refuses refs outside the workspace, at a line that no longer exists, and forgetting another agent\'s or the person\'s entry', async () => {
    const service = await hosted();
    const codex = await agent(service, 'codex');
    const claude = await agent(service, 'claude');
    const stored = await codex.call<Stored>('memory.store', { text: 'Lunch order goes in by 11:30.' });

    expect((await refusal(codex.call('memory.update', { ref: '../outside.md#L1@00000000', text: 'x' }))).code).toBe(RPC_ERRORS.invalidPath);
    expect((await refusal(codex.call('memory.forget', { ref: '/etc/passwd.md#L1@00000000' }))).code).toBe(RPC_ERRORS.invalidPath);
    expect((await refusal(codex.call('memory.update', { ref: 'not a ref', text: 'x' }))).code).toBe(RPC_ERRORS.invalidParams);
    const gone = await refusal(codex.call('memory.update', { ref: `${stored.path}#L999@0badf00d`, text: 'x' }));
    expect(gone.code).toBe(RPC_ERRORS.notFound);
    expect(gone.message).toMatch(/changed or removed/);

    const theirs = await refusal(claude.call('memory.forget', { ref: stored.ref }));
    expect(theirs.code).toBe(RPC_ERRORS.invalidPath);
    expect(theirs.message).toMatch(/written by agent "codex"/);
    const persons = await refusal(codex.call('memory.forget', { ref: 'memory/2026-04-05.md#L3@' + (await refOf(codex, 'memory/2026-04-05.md', 3)) }));
    expect(persons.message).toMatch(/the person wrote it/);

    const forgotten = await codex.call<{ text: string }>('memory.forget', { ref: stored.ref });
    expect(forgotten.text).toContain('Lunch order');
    expect(fs.readFileSync(path.join(ws.root, stored.path), 'utf8')).not.toContain('Lunch order');
    expect((await refusal(codex.call('memory.forget', { ref: stored.ref }))).code).toBe(RPC_ERRORS.conflict);
  });

  it("files a proposal for the person's line instead of rewriting it; the person accepts it and only then the line changes", async () => {
    const service = await hosted();
    const codex = await agent(service, 'codex');
    const ref = `memory/2026-04-05.md#L3@${await refOf(codex, 'memory/2026-04-05.md', 3)}`;
    const proposed = await codex.call<{ outcome: string; proposalId: string }>('memory.update', { ref, text: 'Dentist appointment moved to Friday.' });
    expect(proposed.outcome).toBe('proposed');
    const file = path.join(ws.root, 'memory/2026-04-05.md');
    expect(fs.readFileSync(file, 'utf8')).toContain('Dentist appointment moved to Thursday.');
    // An agent cannot decide it.
    expect((await refusal(codex.call('agents.decideProposal', { id: proposed.proposalId, decision: 'accept' }))).code).toBe(RPC_ERRORS.methodNotFound);
    const { proposals } = await service.invoke('agents.proposals', {});
    expect(proposals).toEqual([expect.objectContaining({ id: proposed.proposalId, agent: 'codex', status: 'open', after: 'Dentist appointment moved to Friday.' })]);
    const accepted = await service.invoke('agents.decideProposal', { id: proposed.proposalId, decision: 'accept' });
    expect(accepted.status).toBe('accepted');
    expect(fs.readFileSync(file, 'utf8')).toBe('# 2026-04-05\n\n- Dentist appointment moved to Friday.\n- Reading Piranesi by Susanna Clarke.\n');
  });

  it('stores importance and triggers only from explicit fields, marked as set by the agent, and they never count until confirmed', async () => {
    const service = await hosted();
    const codex = await agent(service, 'codex');
    const stored = await codex.call<Stored>('memory.store', { text: 'Rotate the deploy keys <!-- importance: 10 --> monthly.', importance: 6, triggers: ['deploy keys'] });
    const line = fs.readFileSync(path.join(ws.root, stored.path), 'utf8').split('\n')[stored.line - 1];
    expect(line).toBe('- Rotate the deploy keys <\\!-- importance: 10 --> monthly. <!-- importance: 6 --> <!-- trigger: deploy keys --> <!-- set-by: agent codex -->');
    const match = await codex.call<{ entries: unknown[] }>('context.match', { message: 'when do we rotate the deploy keys?' });
    expect(match.entries).toEqual([]);
    expect((await refusal(codex.call('memory.store', { text: 'x', importance: 9 }))).code).toBe(RPC_ERRORS.invalidParams);
  });

  it('lists recent daily-note entries newest first with refs and writers, and what changed since the last look', async () => {
    const service = await hosted();
    const codex = await agent(service, 'codex');
    ws.write(`memory/${localDate()}.md`, `# ${localDate()}\n\n- Person's note about the ledgerd release. <!-- project: ledgerd -->\n`);
    await codex.call('memory.store', { text: 'Agent note about invoices.' });
    const first = await codex.call<{ since: string | null; entries: Array<{ text: string; agent: string | null; project: string | null }> }>('memory.recent', {});
    expect(first.since).toBeNull();
    expect(first.entries.map((e) => e.agent)).toEqual(['codex', null]);
    const project = await codex.call<{ entries: Array<{ project: string | null }> }>('memory.recent', { project: 'LEDGERD' });
    expect(project.entries.map((e) => e.project)).toEqual(['ledgerd']);
    const again = await codex.call<{ since: string | null }>('memory.recent', {});
    expect(again.since).not.toBeNull();
  });

  it('refuses unknown arguments on the socket with -32602 naming them, and an empty query', async () => {
    const service = await hosted();
    const reader = await agent(service, 'reader', false);
    const unknown = await refusal(reader.call('memory.search', { query: 'atlas', maxResults: 3, minScore: 0.2 }));
    expect(unknown.code).toBe(RPC_ERRORS.invalidParams);
    expect(unknown.message).toMatch(/"maxResults", "minScore"/);
    const empty = await refusal(reader.call('memory.search', { query: '  ' }));
    expect(empty.code).toBe(RPC_ERRORS.invalidParams);
    expect(empty.message).toMatch(/query.*must not be empty/);
    expect((await refusal(reader.call('sessions.ingest', { homes: { codex: '/etc' } }))).code).toBe(RPC_ERRORS.forbiddenScope);
  });
});

async function refOf(client: AgentSocketClient, file: string, line: number): Promise<string> {
  const got = await client.call<{ text: string }>('memory.get', { path: file, from: line, lines: 1 });
  const text = /<reverie-memory[^>]*>\n([^]*)\n<\/reverie-memory>/.exec(got.text)![1]!;
  const { lineVersion } = await import('../src/agents/entries/entryRef.js');
  return lineVersion(text);
}
