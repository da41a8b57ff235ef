import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { chromiumPath, newAppPage, saveScreenshot, waitForIndexReady } from './support/browser.js';
import { useServedApp } from './support/suite.js';

interface RpcReply {
  jsonrpc: '2.0';
  id: number | string | null;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** One connection to the agent socket: newline-delimited JSON-RPC 2.0, as any local agent speaks it. */
async function openSocket(socketPath: string): Promise<{ call(method: string, params?: unknown): Promise<RpcReply>; close(): void }> {
  const socket = net.createConnection(socketPath);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const waiting = new Map<number, (reply: RpcReply) => void>();
  const lines = createInterface({ input: socket });
  lines.on('line', (line) => {
    const reply = JSON.parse(line) as RpcReply;
    const resolve = waiting.get(reply.id as number);
    if (resolve) {
      waiting.delete(reply.id as number);
      resolve(reply);
    }
  });
  let nextId = 1;
  return {
    call(method, params) {
      const id = nextId++;
      const answered = new Promise<RpcReply>((resolve, reject) => {
        waiting.set(id, resolve);
        const timer = setTimeout(() => reject(new Error(`no answer to ${method} within 10 s`)), 10_000);
        timer.unref();
      });
      socket.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) })}\n`);
      return answered;
    },
    close() {
      lines.close();
      socket.destroy();
    },
  };
}

// `reverie serve` (spawned by useServedApp) writes agent tools' configuration into its HOME: a fake one, with Codex's real file.
const fakeHome = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-e2e-home-'));
const codexConfig = path.join(fakeHome, '.codex', 'config.toml');
fs.mkdirSync(path.dirname(codexConfig), { recursive: true });
fs.copyFileSync(path.join(import.meta.dirname, '..', 'core', 'test', 'fixtures', 'toolConfigs', 'codex-config.toml'), codexConfig);
process.env.HOME = fakeHome;
delete process.env.CODEX_HOME;

describe.skipIf(!chromiumPath)('Agents view', () => {
  const app = useServedApp();

  async function call<T>(operation: string, input: unknown = {}): Promise<T> {
    const response = await fetch(`${app.serve.url}/api/${operation}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${app.serve.token}`, Origin: app.serve.url },
      body: JSON.stringify(input),
    });
    const body = (await response.json()) as { ok: boolean; result: T; error?: { code: string; message: string } };
    if (!body.ok) throw new Error(`${operation}: ${body.error?.code ?? response.status}: ${body.error?.message ?? ''}`);
    return body.result;
  }

  it('adds an agent with a token shown once, logs its socket calls, previews its context and revokes it', async () => {
    const { page, problems, close } = await newAppPage(app.browser);
    // Revoke asks first (window.confirm); say yes.
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(app.serve.launchUrl);
    await waitForIndexReady(page);

    // 1. Agents sits in the navigation just before Status.
    const navOrder = await page.locator('nav [data-testid^=nav-]').evaluateAll((items) => items.map((i) => i.getAttribute('data-testid')));
    expect(navOrder.indexOf('nav-agents')).toBe(navOrder.indexOf('nav-status') - 1);
    await page.click('[data-testid=nav-agents]');
    await page.locator('[data-testid=agents-view]').waitFor();
    expect(await page.getAttribute('body', 'data-view')).toBe('agents');
    await page.locator('[data-testid=agents-list]', { hasText: 'No agents yet' }).waitFor();

    // 2. The engine's name check is shown inline.
    await page.fill('[data-testid=agent-add-name]', 'claude code!');
    await page.click('[data-testid=agent-add-submit]');
    const nameError = page.locator('[data-testid=agent-add-error]');
    await nameError.waitFor();
    expect(await nameError.textContent()).toMatch(/letters, digits/);
    expect(await page.locator('[data-testid=agent-token]').count()).toBe(0);

    // 3. "claude-code" with write: the token is shown once, and the Claude Code snippet carries it.
    await page.fill('[data-testid=agent-add-name]', 'claude-code');
    expect(await nameError.count()).toBe(0);
    await page.check('[data-testid=agent-add-write]');
    await page.click('[data-testid=agent-add-submit]');
    const tokenText = page.locator('[data-testid=agent-token-box-text]');
    await tokenText.waitFor();
    const token = ((await tokenText.textContent()) ?? '').trim();
    expect(token).toMatch(/^rvr_[\w-]{20,}$/);
    expect(await page.locator('[data-testid=agent-token-warning]').textContent()).toContain('shown only now');
    const workspace = (await call<{ workspace: { path: string } }>('status')).workspace.path;
    const claudeSnippet = (await page.locator('[data-testid=agent-snippet-claude-code-box-text]').textContent()) ?? '';
    expect(claudeSnippet).toContain(`REVERIE_AGENT_TOKEN=${token}`);
    // The snippet starts this installation's CLI by absolute path (npx only resolves inside the repository).
    expect(claudeSnippet).toMatch(/^claude mcp add reverie --env REVERIE_AGENT_TOKEN=\S+ -- \S*node\S* \S+\/bin\/reverie\.js mcp --workspace /);
    expect(claudeSnippet).toContain(workspace.includes(' ') ? `'${workspace}'` : workspace);
    const codexSnippet = (await page.locator('[data-testid=agent-snippet-codex-box-text]').textContent()) ?? '';
    expect(codexSnippet).toContain('[mcp_servers.reverie]');
    expect(codexSnippet).toContain(`REVERIE_AGENT_TOKEN = "${token}"`);
    for (const id of ['hermes', 'openclaw']) {
      expect(await page.locator(`[data-testid=agent-snippet-${id}-box-text]`).textContent()).toContain(token);
    }

    // The agent is listed, read + write, never used.
    const row = page.locator('[data-testid=agent-row][data-agent=claude-code]');
    await row.waitFor();
    expect(await row.getAttribute('data-revoked')).toBe('false');
    expect(await row.locator('[data-testid=agent-scopes]').textContent()).toBe('read + write');
    expect(await row.locator('[data-testid=agent-last-used]').textContent()).toBe('never');
    await saveScreenshot(page, 'agents-token');
    await page.locator('[data-testid=agent-setup]').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'agents-setup');

    // 4. The socket the view names is the one the engine serves.
    const listed = await call<{ socket: { path: string; listening: boolean } }>('agents.list');
    expect(listed.socket.listening).toBe(true);
    expect(await page.locator('[data-testid=agent-socket-path]').textContent()).toBe(listed.socket.path);
    expect(await page.locator('[data-testid=agent-socket-state]').getAttribute('data-listening')).toBe('true');
    expect(await page.locator('[data-testid=agent-socket-example-text]').textContent()).toContain(`"method":"auth","params":{"token":"${token}"}`);

    // 5. The agent calls: auth, then a search, over the socket.
    const client = await openSocket(listed.socket.path);
    try {
      const auth = await client.call('auth', { token });
      expect(auth.error, JSON.stringify(auth.error)).toBeUndefined();
      const search = await client.call('memory.search', { query: 'grey heron', limit: 5 });
      expect(search.error, JSON.stringify(search.error)).toBeUndefined();
      const results = (search.result as { results: Array<{ path: string }> }).results;
      expect(results.map((r) => r.path)).toContain('memory/2026-03-02.md');
    } finally {
      client.close();
    }

    // 6. Refreshing the access log shows the call with its query; the list counts it.
    await page.click('[data-testid=agent-log-refresh]');
    const searchRow = page.locator('[data-testid=agent-log-row][data-method="memory.search"]', { hasText: 'grey heron' });
    await searchRow.waitFor();
    expect(await searchRow.getAttribute('data-ok')).toBe('true');
    expect(await searchRow.textContent()).toContain('claude-code');
    expect(await searchRow.locator('[data-testid=agent-log-result]').textContent()).toMatch(/^\d+ results?$/);
    await page.click('[data-testid=agents-refresh]');
    await row.locator('[data-testid=agent-calls]', { hasText: /^[1-9]\d*$/ }).waitFor({ timeout: 10_000 });
    expect(await row.locator('[data-testid=agent-last-used]').textContent()).not.toBe('never');
    // Filtering by agent keeps its calls.
    await page.selectOption('[data-testid=agent-log-filter]', 'claude-code');
    await searchRow.waitFor();

    // 7. What would this agent get: USER.md and MEMORY.md, framed.
    await page.click('[data-testid=agent-bootstrap-run]');
    const bootstrapText = page.locator('[data-testid=agent-bootstrap-text]');
    await bootstrapText.waitFor();
    const text = (await bootstrapText.textContent()) ?? '';
    expect(text).toContain('Ada Marlowe');
    expect(text).toContain('Quillfeather');
    expect(text).toContain('<reverie-memory');
    const files = await page.locator('[data-testid=agent-bootstrap-file]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-path')));
    expect(files).toEqual(expect.arrayContaining(['USER.md', 'MEMORY.md']));
    await page.locator('[data-testid=agent-bootstrap]').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'agents');

    // 8. Leaving the view drops the token; coming back shows the placeholder.
    await page.click('[data-testid=nav-status]');
    await page.click('[data-testid=nav-agents]');
    await page.locator('[data-testid=agents-view]').waitFor();
    expect(await page.locator('[data-testid=agent-token]').count()).toBe(0);
    expect(await page.locator('[data-testid=agent-snippet-claude-code-box-text]').textContent()).toContain('REVERIE_AGENT_TOKEN=<token>');
    expect(await page.content()).not.toContain(token);

    // 9. Revoke: the list says so, and the token is refused (-32001) from then on.
    await row.locator('[data-testid=agent-revoke]').click();
    await page.locator('[data-testid=agent-row][data-agent=claude-code][data-revoked=true]').waitFor();
    expect(await row.locator('[data-testid=agent-state]').textContent()).toBe('revoked');
    expect(await row.locator('[data-testid=agent-revoke]').count()).toBe(0);
    const after = await openSocket(listed.socket.path);
    try {
      const refused = await after.call('auth', { token });
      expect(refused.error?.code).toBe(-32001);
      const inline = await after.call('memory.search', { query: 'grey heron', token });
      expect(inline.error?.code).toBe(-32001);
    } finally {
      after.close();
    }
    await page.locator('[data-testid=agents-list]').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'agents-revoked');

    // The one refusal asked for on purpose (the invalid name) is the only failed request.
    const badRequests = problems.filter((p) => p.includes('the server responded with a status of 400'));
    expect(badRequests).toHaveLength(1);
    expect(problems.filter((p) => !badRequests.includes(p))).toEqual([]);
    await close();
  });

  it('connects Codex with one click: previews the diff, writes config.toml and hooks.json, the written command serves MCP, and Disconnect restores the file', async () => {
    const { page, problems, close } = await newAppPage(app.browser);
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(app.serve.launchUrl);
    await waitForIndexReady(page);
    await page.click('[data-testid=nav-agents]');
    await page.locator('[data-testid=agents-view]').waitFor();
    const before = fs.readFileSync(codexConfig, 'utf8');

    // Preview: the diff, and nothing written.
    await page.click('[data-testid=agent-connect-preview-codex]');
    const preview = page.locator('[data-testid=agent-connect-result][data-dry-run=true]');
    await preview.waitFor();
    expect(await preview.textContent()).toContain('+[mcp_servers.reverie]');
    expect(fs.readFileSync(codexConfig, 'utf8')).toBe(before);

    // Connect: Codex's own files now name this installation's command, with a token.
    await page.click('[data-testid=agent-connect-codex]');
    const done = page.locator('[data-testid=agent-connect-result][data-dry-run=false]');
    await done.waitFor();
    expect(await done.locator('[data-testid=agent-connect-file]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action')))).toEqual(['changed', 'created']);
    await page.locator('[data-testid=agent-row][data-agent=codex][data-revoked=false]').waitFor();
    await saveScreenshot(page, 'agents-connected');
    const config = parseToml(fs.readFileSync(codexConfig, 'utf8')) as { mcp_servers: Record<string, { command: string; args: string[]; env: Record<string, string> }>; model: string };
    expect(config.model).toBe('gpt-5-codex');
    const server = config.mcp_servers.reverie!;
    expect(server.args).toEqual(expect.arrayContaining(['mcp', '--workspace']));
    expect(JSON.parse(fs.readFileSync(path.join(fakeHome, '.codex', 'hooks.json'), 'utf8')).hooks.SessionStart).toHaveLength(1);

    // The command Codex would run answers through the running host.
    const client = new Client({ name: 'codex-e2e', version: '1' });
    await client.connect(new StdioClientTransport({ command: server.command, args: server.args, env: { ...process.env, ...server.env } as Record<string, string>, stderr: 'ignore' }));
    try {
      const found = await client.callTool({ name: 'memory_search', arguments: { query: 'grey heron' } });
      expect(found.isError).toBeFalsy();
    } finally {
      await client.close();
    }

    // Disconnect: the exact earlier bytes come back, hooks.json (which Reverie created) goes, the token is revoked.
    await page.click('[data-testid=agent-disconnect-codex]');
    await page.locator('[data-testid=agent-row][data-agent=codex][data-revoked=true]').waitFor();
    expect(fs.readFileSync(codexConfig, 'utf8')).toBe(before);
    expect(fs.existsSync(path.join(fakeHome, '.codex', 'hooks.json'))).toBe(false);
    expect(problems).toEqual([]);
    await close();
  }, 120_000);
});
