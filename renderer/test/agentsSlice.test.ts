import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { AccessLogEntry, AgentInfo, OperationInput, OperationOutput } from '../../core/src/contract/index.js';
import { MemoryClientError } from '../src/client/clientError.js';
import { LOG_PAGE_SIZE, displayAgentName, plainEngineMessage } from '../src/store/agentsSlice.js';
import { createReverieStore, type ReverieStore } from '../src/store/store.js';
import { StoreContext } from '../src/store/useReverie.js';
import { AgentsView } from '../src/views/agents/AgentsView.js';
import { claudeCodeSnippet, codexSnippet, fallbackLaunch, openClawSnippet, setupSnippets, shellQuote, socketAuthExample } from '../src/views/agents/agentSetup.js';

const LAUNCH = { command: '/usr/bin/node', args: ['/opt/reverie/bin/reverie.js', 'mcp', '--workspace', '/w', '--data-dir', '/d'] };
import { createFakeClient, deferred } from './fakeClient.js';

const TOKEN = 'rvr_abcDEF123-_xyz';
const SOCKET = { path: '/data/reverie.sock', listening: true };

const agent = (over: Partial<AgentInfo> & Pick<AgentInfo, 'name'>): AgentInfo => ({
  id: `agent:${over.name}`,
  scopes: ['read'],
  createdAt: '2026-11-03T10:00:00.000Z',
  lastUsedAt: null,
  revokedAt: null,
  calls: 0,
  ...over,
});

const entry = (over: Partial<AccessLogEntry> = {}): AccessLogEntry => ({
  at: '2026-11-03T10:05:00.000Z',
  agent: 'claude-code',
  method: 'memory.search',
  detail: 'heron',
  results: 2,
  ok: true,
  error: null,
  durationMs: 3.2,
  transport: 'socket',
  ...over,
});

const VALIDATION =
  'agents.add: field "name": name may use letters, digits, ".", "_" and "-" (starting with a letter or digit)';

/** A tiny engine: agents in memory, an access log, refusals like the real one. */
function engine(options: { confirm?: boolean; logEntries?: AccessLogEntry[] } = {}) {
  const agents: AgentInfo[] = [];
  const logCalls: Array<OperationInput<'agents.log'>> = [];
  const entries = options.logEntries ?? [];
  const proposals: Array<OperationOutput<'agents.proposals'>['proposals'][number]> = [
    { id: 'proposal:1', agent: 'codex', path: 'memory/2026-04-05.md', line: 3, before: '- Dentist on Thursday.', after: 'Dentist on Friday.', createdAt: '2026-11-03T10:00:00.000Z', status: 'open', decidedAt: null, note: null },
  ];
  let failList = false;
  const client = createFakeClient({
    'agents.list': async () => {
      if (failList) throw new MemoryClientError('internal', 'the agents database is locked');
      return { agents: agents.map((a) => ({ ...a })), socket: SOCKET, mcpLaunch: LAUNCH };
    },
    'agents.add': async ({ name, write }) => {
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) throw new MemoryClientError('invalid-input', VALIDATION);
      if (agents.some((a) => a.name === name && !a.revokedAt)) throw new MemoryClientError('conflict', `An agent named "${name}" already exists.`);
      const scopes: AgentInfo['scopes'] = write ? ['read', 'write'] : ['read'];
      agents.push(agent({ name, scopes }));
      return { agentId: `agent:${name}`, name, scopes, token: TOKEN };
    },
    'agents.revoke': async ({ name }) => {
      const found = agents.find((a) => a.name === name);
      if (!found) throw new MemoryClientError('not-found', `No agent named "${name}".`);
      found.revokedAt = '2026-11-03T11:00:00.000Z';
      return { ...found };
    },
    'agents.log': async (input) => {
      logCalls.push(input);
      const filtered = input.agent ? entries.filter((e) => e.agent === input.agent) : entries;
      return { entries: filtered.slice(0, input.limit ?? 200) };
    },
    'agents.proposals': async () => ({ proposals: proposals.filter((p) => p.status === 'open') }),
    'agents.decideProposal': async ({ id, decision }) => {
      const found = proposals.find((p) => p.id === id)!;
      found.status = decision === 'accept' ? 'accepted' : 'rejected';
      return { ...found };
    },
    'agents.connect': async ({ tool, dryRun }) => {
      if (tool === 'hermes') throw new MemoryClientError('invalid-input', '/home/ada/.hermes/config.yaml line 3: is not valid YAML (bad indentation). Nothing was changed; fix the file (or add Reverie\'s entry by hand) and run it again.');
      if (!dryRun) agents.push(agent({ name: tool, scopes: ['read', 'write'] }));
      return { tool, agent: tool, dryRun: dryRun ?? false, notes: [], files: [{ path: '/home/ada/.codex/config.toml', action: 'changed', backup: dryRun ? null : '/d/backups/agents/codex/config.toml.bak', diff: '+[mcp_servers.reverie]\n' }] };
    },
    'agents.disconnect': async ({ tool }) => ({ tool, dryRun: false, revoked: true, files: [{ path: '/home/ada/.codex/config.toml', action: 'restored', backup: null, diff: '-[mcp_servers.reverie]\n' }] }),
    'context.bootstrap': async (input): Promise<OperationOutput<'context.bootstrap'>> => {
      if ((input.budget ?? 24_000) < 1000) throw new MemoryClientError('invalid-input', 'context.bootstrap: field "budget": Too small: expected number to be >=1000');
      return {
        text: '<reverie-memory source="USER.md">\n- Name: Ada\n</reverie-memory>',
        files: [{ path: 'USER.md', chars: 12, included: 12, truncated: false }],
        totalChars: 60,
        budget: input.budget ?? 24_000,
        truncated: false,
      };
    },
  });
  const asked: string[] = [];
  const store = createReverieStore(client, {
    confirm: (message) => {
      asked.push(message);
      return options.confirm ?? true;
    },
  });
  return { store, agents, logCalls, asked, failList: (v: boolean) => (failList = v) };
}

const render = (store: ReverieStore): string =>
  renderToStaticMarkup(createElement(StoreContext.Provider, { value: { ...store, getInitialState: store.getState } }, createElement(AgentsView)));

describe('agents slice', () => {
  it('adds an agent, shows its token once and clears it when dismissed', async () => {
    const { store } = engine();
    const agents = () => store.getState().agents;
    agents().setAddName('claude-code');
    agents().setAddWrite(true);
    await agents().add();
    expect(agents().created).toEqual({ agentId: 'agent:claude-code', name: 'claude-code', scopes: ['read', 'write'], token: TOKEN });
    // The form is reset and the list reloaded.
    expect(agents().addName).toBe('');
    expect(agents().addWrite).toBe(false);
    expect(agents().agents?.map((a) => a.name)).toEqual(['claude-code']);
    expect(agents().socket).toEqual(SOCKET);
    agents().dismissToken();
    expect(agents().created).toBeNull();
  });

  it('drops the token when leaving the view, and a late answer does not bring it back', async () => {
    const { store } = engine();
    store.getState().app.setView('agents');
    store.getState().agents.setAddName('codex');
    await store.getState().agents.add();
    expect(store.getState().agents.created?.token).toBe(TOKEN);
    store.getState().app.setView('search');
    expect(store.getState().agents.created).toBeNull();

    // An add still in flight when the view is left: its token never shows.
    const gate = deferred<OperationOutput<'agents.add'>>();
    const client = createFakeClient({ 'agents.add': () => gate.promise, 'agents.list': async () => ({ agents: [], socket: SOCKET, mcpLaunch: LAUNCH }) });
    const other = createReverieStore(client, { confirm: () => true });
    other.getState().agents.setAddName('late');
    const adding = other.getState().agents.add();
    other.getState().agents.onLeave();
    gate.resolve({ agentId: 'agent:late', name: 'late', scopes: ['read'], token: TOKEN });
    await adding;
    expect(other.getState().agents.created).toBeNull();
    expect(other.getState().agents.addState).toBe('idle');
  });

  it("shows the engine's validation message inline, without its prefix, and clears it on typing", async () => {
    const { store } = engine();
    store.getState().agents.setAddName('bad name!');
    await store.getState().agents.add();
    const s = store.getState().agents;
    expect(s.addState).toBe('error');
    expect(s.addError).toBe('name may use letters, digits, ".", "_" and "-" (starting with a letter or digit)');
    expect(s.created).toBeNull();
    const html = render(store);
    expect(html).toContain('data-testid="agent-add-error"');
    expect(html).toContain('aria-invalid="true"');
    store.getState().agents.setAddName('good');
    expect(store.getState().agents.addError).toBeNull();
  });

  it('revokes after asking, and not when the person says no', async () => {
    const declined = engine({ confirm: false });
    declined.store.getState().agents.setAddName('codex');
    await declined.store.getState().agents.add();
    await declined.store.getState().agents.revoke('codex');
    expect(declined.asked).toHaveLength(1);
    expect(declined.agents[0]?.revokedAt).toBeNull();

    const { store, asked } = engine();
    store.getState().agents.setAddName('codex');
    await store.getState().agents.add();
    await store.getState().agents.revoke('codex');
    expect(asked[0]).toContain('"codex"');
    expect(store.getState().agents.agents?.[0]?.revokedAt).not.toBeNull();
    expect(store.getState().agents.revoking).toBeNull();
    const html = render(store);
    expect(html).toContain('data-revoked="true"');
    expect(html).not.toContain('data-testid="agent-revoke"');
  });

  it('reports a failed revoke and a failed list inline', async () => {
    const { store, failList } = engine();
    await store.getState().agents.revoke('ghost');
    expect(store.getState().agents.revokeError).toBe('Could not revoke "ghost": No agent named "ghost".');
    failList(true);
    await store.getState().agents.loadList();
    expect(store.getState().agents.listState).toBe('error');
    expect(store.getState().agents.listError).toBe('the agents database is locked');
    expect(render(store)).toContain('data-testid="agents-list-error"');
  });

  it('filters the access log by agent and pages with "show more"', async () => {
    const many = Array.from({ length: LOG_PAGE_SIZE + 10 }, (_, i) => entry({ agent: i % 2 ? 'codex' : 'claude-code', detail: `q${i}` }));
    const { store, logCalls } = engine({ logEntries: many });
    await store.getState().agents.loadLog();
    expect(logCalls.at(-1)).toEqual({ limit: LOG_PAGE_SIZE });
    expect(store.getState().agents.log).toHaveLength(LOG_PAGE_SIZE);
    expect(store.getState().agents.logHasMore).toBe(true);

    await store.getState().agents.showMoreLog();
    expect(logCalls.at(-1)?.limit).toBeGreaterThan(LOG_PAGE_SIZE);
    expect(store.getState().agents.log).toHaveLength(many.length);
    expect(store.getState().agents.logHasMore).toBe(false);

    await store.getState().agents.setLogAgent('codex');
    expect(logCalls.at(-1)).toEqual({ agent: 'codex', limit: LOG_PAGE_SIZE });
    expect(store.getState().agents.log.every((e) => e.agent === 'codex')).toBe(true);
    expect(store.getState().agents.logHasMore).toBe(false);

    await store.getState().agents.setLogAgent(null);
    expect(logCalls.at(-1)).toEqual({ limit: LOG_PAGE_SIZE });
  });

  it('shows a failed call with its error, and a log error inline', async () => {
    const { store } = engine({ logEntries: [entry({ ok: false, results: null, error: 'unauthenticated: revoked', method: 'memory.search' })] });
    await store.getState().agents.loadLog();
    const html = render(store);
    expect(html).toContain('data-ok="false"');
    expect(html).toContain('unauthenticated: revoked');

    const client = createFakeClient({ 'agents.log': async () => Promise.reject(new MemoryClientError('internal', 'disk I/O error')) });
    const broken = createReverieStore(client, { confirm: () => true });
    await broken.getState().agents.loadLog();
    expect(broken.getState().agents.logState).toBe('error');
    expect(broken.getState().agents.logError).toBe('disk I/O error');
  });

  it('previews the bootstrap context and reports a bad budget inline', async () => {
    const { store } = engine();
    store.getState().agents.setBootstrapBudget(5000);
    store.getState().agents.setBootstrapProject('  quill  ');
    await store.getState().agents.previewBootstrap();
    expect(store.getState().agents.bootstrap?.budget).toBe(5000);
    const html = render(store);
    expect(html).toContain('&lt;reverie-memory source=&quot;USER.md&quot;&gt;');
    expect(html).toContain('data-path="USER.md"');

    store.getState().agents.setBootstrapBudget(10);
    await store.getState().agents.previewBootstrap();
    expect(store.getState().agents.bootstrapState).toBe('error');
    expect(store.getState().agents.bootstrapError).toBe('Too small: expected number to be >=1000');
  });

  it('puts the token on screen into every setup snippet, else a placeholder', async () => {
    const { store } = engine();
    store.getState().agents.setAddName('claude-code');
    await store.getState().agents.add();
    const withToken = render(store);
    expect(withToken).toContain(`claude mcp add reverie --env REVERIE_AGENT_TOKEN=${TOKEN} -- /usr/bin/node /opt/reverie/bin/reverie.js mcp --workspace /w --data-dir /d`);
    expect(withToken).toContain('shown only now');
    store.getState().agents.dismissToken();
    const without = render(store);
    expect(without).not.toContain(TOKEN);
    expect(without).toContain('REVERIE_AGENT_TOKEN=&lt;token&gt;');
  });
});

describe('agent setup snippets', () => {
  it('quotes paths for the shell and TOML/JSON', () => {
    expect(shellQuote('/home/ada/notes')).toBe('/home/ada/notes');
    expect(shellQuote("/home/ada/my notes/it's")).toBe(`'/home/ada/my notes/it'\\''s'`);
    expect(claudeCodeSnippet(TOKEN, fallbackLaunch('/w/my notes'))).toBe(`claude mcp add reverie --env REVERIE_AGENT_TOKEN=${TOKEN} -- npx reverie mcp --workspace '/w/my notes'`);
    expect(codexSnippet(TOKEN, fallbackLaunch('C:\\Users\\ada'))).toBe(
      ['[mcp_servers.reverie]', 'command = "npx"', 'args = ["reverie", "mcp", "--workspace", "C:\\\\Users\\\\ada"]', `env = { REVERIE_AGENT_TOKEN = "${TOKEN}" }`].join('\n'),
    );
    expect(claudeCodeSnippet(TOKEN, LAUNCH)).toBe(`claude mcp add reverie --env REVERIE_AGENT_TOKEN=${TOKEN} -- /usr/bin/node /opt/reverie/bin/reverie.js mcp --workspace /w --data-dir /d`);
    expect(JSON.parse(openClawSnippet(TOKEN, fallbackLaunch('/w')))).toEqual({
      mcp: { servers: { reverie: { command: 'npx', args: ['reverie', 'mcp', '--workspace', '/w'], env: { REVERIE_AGENT_TOKEN: TOKEN } } } },
    });
    expect(setupSnippets(null, null).map((s) => s.id)).toEqual(['codex', 'claude-code', 'hermes', 'openclaw']);
    expect(setupSnippets(null, '/w').every((s) => s.text.includes('<token>'))).toBe(true);
    expect(JSON.parse(socketAuthExample(TOKEN))).toEqual({ jsonrpc: '2.0', id: 1, method: 'auth', params: { token: TOKEN } });
  });

  it('cleans engine messages and revoked names', () => {
    expect(plainEngineMessage('agents.add: field "name": too long; agents.add: field "write": bad')).toBe('too long; bad');
    expect(plainEngineMessage('plain message')).toBe('plain message');
    expect(displayAgentName('codex~revoked~abc123')).toBe('codex');
  });

  it('connects a tool with one click, shows each file and its diff, previews without writing, shows a refusal, and disconnects after asking', async () => {
    const { store, asked } = engine();
    const agents = () => store.getState().agents;
    await agents().connect('codex', true);
    expect(agents().connectResult).toMatchObject({ dryRun: true, files: [{ action: 'changed', backup: null }] });
    expect(agents().agents?.map((a) => a.name)).toEqual([]);
    await agents().connect('codex', false);
    expect(agents().connectResult).toMatchObject({ dryRun: false, files: [{ backup: '/d/backups/agents/codex/config.toml.bak' }] });
    expect(agents().agents?.map((a) => a.name)).toEqual(['codex']);
    expect(render(store)).toContain('+[mcp_servers.reverie]');
    await agents().connect('hermes', false);
    expect(agents().connectError).toMatch(/config\.yaml line 3: is not valid YAML/);
    expect(render(store)).toContain('data-testid="agent-connect-error"');
    await agents().disconnect('codex');
    expect(asked.at(-1)).toMatch(/Disconnect codex\?/);
    expect(agents().connectResult).toMatchObject({ revoked: true, files: [{ action: 'restored' }] });
  });

  it("lists agents' proposed corrections and takes the person's decision", async () => {
    const { store } = engine();
    const agents = () => store.getState().agents;
    await agents().load();
    expect(agents().proposals.map((p) => p.id)).toEqual(['proposal:1']);
    expect(render(store)).toContain('data-testid="agent-proposal"');
    await agents().decideProposal('proposal:1', 'accept');
    expect(agents().proposals).toEqual([]);
  });
});
