import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumPath, newAppPage, saveScreenshot, waitForIndexReady } from './support/browser.js';
import { useServedApp } from './support/suite.js';

const HERON_NOTE = 'memory/2026-03-02.md';
/** The note forgotten at the end: "plumber" occurs in no other file. */
const PLUMBER_NOTE = 'memory/2026-03-09.md';

/** A Claude Code session from the engine's fixtures: a WebFetch result taints the assistant reply about pgdriver. */
const CLAUDE_FIXTURE = path.join('core', 'test', 'fixtures', 'sessions', 'claude-code', 'projects', '-home-dana-src-ledgerd');
const CLAUDE_SESSION = '7c0f3a52-1b2d-4e5f-8a9b-0c1d2e3f4a5b';

describe.skipIf(!chromiumPath)('Provenance inspector', () => {
  const app = useServedApp();

  async function call(operation: string, input: unknown): Promise<unknown> {
    const response = await fetch(`${app.serve.url}/api/${operation}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${app.serve.token}`, Origin: app.serve.url },
      body: JSON.stringify(input),
    });
    const body = (await response.json()) as { ok: boolean; result?: unknown; error?: unknown };
    if (!body.ok) throw new Error(`${operation} failed: ${JSON.stringify(body.error)}`);
    return body.result;
  }

  it('opens from a search result and from a Memory-view line, and forgets a file after a dry run', async () => {
    const { page, problems, close } = await newAppPage(app.browser);
    await page.goto(app.serve.launchUrl);
    await waitForIndexReady(page);

    // Memory and sessions are searched by default, dreams are not (the engine's default).
    expect(await page.isChecked('[data-testid=source-memory]')).toBe(true);
    expect(await page.isChecked('[data-testid=source-sessions]')).toBe(true);
    expect(await page.isChecked('[data-testid=source-dreams]')).toBe(false);

    // 1. Search → "Where from?" → file, lines and origin "owner" for a workspace note.
    await page.fill('[data-testid=search-input]', 'Bartholomew heron');
    const first = page.locator('[data-testid=search-result]').first();
    await first.waitFor();
    expect(await first.getAttribute('data-path')).toBe(HERON_NOTE);
    const start = await first.getAttribute('data-start-line');
    const end = await first.getAttribute('data-end-line');
    // Results carry an origin badge once the engine fills `origin`; a workspace note is the person's own.
    const resultOrigin = await first.getAttribute('data-origin');
    if (resultOrigin !== null) expect(resultOrigin).toBe('owner');

    await first.locator('[data-testid=where-from-button]').click();
    const panel = page.locator('[data-testid=provenance-panel][data-state=ready]');
    await panel.waitFor();
    expect(await page.getAttribute('body', 'data-view')).toBe('search'); // the button does not open the result
    expect(await panel.locator('[data-testid=provenance-location]').textContent()).toBe(`${HERON_NOTE}:${start}-${end}`);
    expect(await panel.locator('[data-testid=provenance-origin]').getAttribute('data-origin')).toBe('owner');
    expect(await panel.locator('[data-testid=provenance-origin]').textContent()).toBe('you');
    expect(await panel.locator('[data-testid=provenance-source]').textContent()).toBe('memory');
    expect(await panel.locator('[data-testid=provenance-text]').textContent()).toContain('Bartholomew');
    expect(await panel.locator('[data-testid=provenance-all-yours]').count()).toBe(1);
    // Focus moved into the panel; Esc closes it and gives focus back to the button.
    expect(await page.locator('[data-testid=provenance-panel] h2:focus').count()).toBe(1);
    await page.keyboard.press('Escape');
    await page.locator('[data-testid=provenance-panel]').waitFor({ state: 'detached' });
    expect(await first.locator('[data-testid=where-from-button]:focus').count()).toBe(1);
    expect(await page.inputValue('[data-testid=search-input]')).toBe('Bartholomew heron');

    // The file link opens the Memory view at those lines.
    await first.locator('[data-testid=where-from-button]').click();
    await panel.locator('[data-testid=provenance-location]').click();
    await page.locator('[data-testid=provenance-panel]').waitFor({ state: 'detached' });
    await page.locator(`[data-testid=document][data-path="${HERON_NOTE}"] [data-testid=hit-line]`).first().waitFor();
    expect(await page.locator('[data-testid=hit-line]').first().getAttribute('data-line')).toBe(start);

    // 2. From a Memory-view line: click a line number in the Source view.
    await page.click('[data-testid=file-item][data-path="MEMORY.md"]');
    await page.locator('[data-testid=document][data-path="MEMORY.md"]').waitFor();
    await page.click('[data-testid=mode-source]');
    await page.locator('.src-line[data-line="4"]').hover();
    await page.click('.src-line[data-line="4"] [data-testid=line-number]');
    await panel.waitFor();
    expect(await panel.getAttribute('data-ref')).toBe('MEMORY.md:4');
    expect(await panel.locator('[data-testid=provenance-location]').textContent()).toBe('MEMORY.md:4-4');
    expect(await panel.locator('[data-testid=provenance-origin]').getAttribute('data-origin')).toBe('owner');
    expect(await panel.locator('[data-testid=provenance-text]').textContent()).toContain('oat-milk flat white');
    expect(await panel.locator('[data-testid=provenance-line]').getAttribute('data-line')).toBe('4');
    await page.click('[data-testid=provenance-close]');
    await page.locator('[data-testid=provenance-panel]').waitFor({ state: 'detached' });

    // 3. Forget a file: a dry run shows what would go, then the confirmation does it.
    const before = fs.readFileSync(app.workspace.file(PLUMBER_NOTE));
    await page.click('[data-testid=nav-search]');
    await page.fill('[data-testid=search-input]', 'plumber');
    const hit = page.locator(`[data-testid=search-result][data-path="${PLUMBER_NOTE}"]`);
    await hit.waitFor();
    await hit.locator('[data-testid=where-from-button]').click();
    await panel.waitFor();
    await panel.locator('[data-testid=forget-start]').click();
    const preview = panel.locator('[data-testid=forget-preview]');
    await preview.waitFor();
    expect(await preview.locator('[data-testid=forget-files]').textContent()).toBe(`1 file: ${PLUMBER_NOTE}`);
    expect(await preview.locator('[data-testid=forget-chunks]').textContent()).toMatch(/^[1-9]\d* chunks?$/);
    expect(await preview.locator('[data-testid=forget-vectors]').textContent()).toMatch(/^\d+ vectors?$/);
    expect(await preview.locator('[data-testid=forget-still]').textContent()).toContain('Your Markdown is not changed; these files still contain the text:');
    expect(await preview.locator('[data-testid=forget-still-file]').first().getAttribute('data-path')).toBe(PLUMBER_NOTE);
    // The dry run removed nothing.
    await page.fill('[data-testid=search-input]', 'plumber kitchen');
    await page.locator(`[data-testid=search-result][data-path="${PLUMBER_NOTE}"]`).waitFor();
    await saveScreenshot(page, 'provenance');

    // Confirmed, then undone: nothing was removed.
    await preview.locator('[data-testid=forget-confirm]').click();
    await panel.locator('[data-testid=forget-held]').waitFor();
    expect(await page.locator('[data-testid=held-action]').textContent()).toContain(`Stopped indexing ${PLUMBER_NOTE}.`);
    await panel.locator('[data-testid=forget-undo]').click();
    await preview.waitFor();
    await page.locator('[data-testid=held-action]').waitFor({ state: 'detached' });
    await page.fill('[data-testid=search-input]', 'plumber kitchen tap');
    await page.locator(`[data-testid=search-result][data-path="${PLUMBER_NOTE}"]`).waitFor();
    await page.fill('[data-testid=search-input]', 'plumber kitchen');
    await page.locator(`[data-testid=search-result][data-path="${PLUMBER_NOTE}"]`).waitFor();

    // Confirmed and left alone: forgotten when the toast goes.
    await preview.locator('[data-testid=forget-confirm]').click();
    await panel.locator('[data-testid=forget-done]').waitFor({ timeout: 30_000 });
    expect(await panel.locator('[data-testid=forget-done]').textContent()).toMatch(/No longer indexed\. Removed [1-9]\d* chunks?/);
    // Results refresh by themselves: the note is gone from search…
    await page.locator('[data-testid=search-empty]').waitFor();
    await page.click('[data-testid=provenance-close]');
    await page.fill('[data-testid=search-input]', 'plumber');
    await page.locator('[data-testid=search-empty]').waitFor();
    expect(await page.locator(`[data-testid=search-result][data-path="${PLUMBER_NOTE}"]`).count()).toBe(0);
    // …and stays gone after a re-index, while the Markdown on disk is untouched.
    await call('index.sync', { force: true });
    await page.fill('[data-testid=search-input]', 'plumber tap');
    await page.locator('[data-testid=search-empty]').waitFor();
    expect(fs.readFileSync(app.workspace.file(PLUMBER_NOTE)).equals(before)).toBe(true);

    expect(problems).toEqual([]);
    await close();
  });

  it('shows a transcript chain (untrusted, session, original JSONL lines) and forgets the session', async () => {
    // A Claude Code home folder outside the workspace, with one session copied from the fixtures.
    const claudeHome = path.join(path.dirname(app.workspace.root), 'claude');
    const projectDir = path.join(claudeHome, 'projects', '-home-dana-src-ledgerd');
    fs.mkdirSync(projectDir, { recursive: true });
    const transcript = path.join(projectDir, `${CLAUDE_SESSION}.jsonl`);
    fs.copyFileSync(path.join(CLAUDE_FIXTURE, `${CLAUDE_SESSION}.jsonl`), transcript);
    const original = fs.readFileSync(transcript);
    await call('sessions.ingest', { homes: { 'claude-code': claudeHome } });

    const { page, problems, close } = await newAppPage(app.browser);
    await page.goto(app.serve.launchUrl);
    await waitForIndexReady(page);
    await page.fill('[data-testid=search-input]', 'pgdriver explicit default');
    const hit = page.locator('[data-testid=search-result][data-path^="sessions/claude-code/"]').first();
    await hit.waitFor();
    expect(await hit.getAttribute('data-origin')).toBe('untrusted');
    const badge = hit.locator('[data-testid=origin-badge]');
    expect(await badge.getAttribute('title')).toBe('From outside your trust boundary: web/tool content; never promoted.');
    expect(await hit.locator('[data-testid=session-kind-badge]').count()).toBe(1);

    // A transcript is no workspace file: the card itself opens the inspector.
    await hit.click();
    const panel = page.locator('[data-testid=provenance-panel][data-state=ready]');
    await panel.waitFor();
    expect(await page.getAttribute('body', 'data-view')).toBe('search');
    expect(await panel.locator('[data-testid=provenance-untrusted-warning]').count()).toBe(1);
    expect(await panel.locator('[data-testid=provenance-origin]').getAttribute('data-origin')).toBe('untrusted');
    expect(await panel.locator('[data-testid=provenance-source]').textContent()).toBe('sessions');
    expect(await panel.locator('[data-testid=transcript-tool]').textContent()).toBe('Claude Code');
    expect(await panel.locator('[data-testid=transcript-session]').textContent()).toBe(CLAUDE_SESSION);
    expect(await panel.locator('[data-testid=transcript-cwd]').textContent()).toBe('/home/dana/src/ledgerd');
    expect(await panel.locator('[data-testid=transcript-original-path]').textContent()).toBe(fs.realpathSync(transcript));
    const rows = panel.locator('[data-testid=transcript-line]');
    expect(await rows.count()).toBeGreaterThan(0);
    const jsonl = original.toString('utf8').split('\n');
    const cited = await rows.evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-source-line'), tr.getAttribute('data-origin')]));
    expect(cited.some(([, origin]) => origin === 'untrusted')).toBe(true);
    for (const [sourceLine] of cited) {
      expect(Number(sourceLine)).toBeGreaterThanOrEqual(1);
      expect(Number(sourceLine)).toBeLessThanOrEqual(jsonl.length);
    }
    expect(await panel.locator('[data-testid=provenance-text]').textContent()).toContain('pgdriver');
    await saveScreenshot(page, 'provenance-transcript');

    // Forget the session: dry run, then confirm.
    await panel.locator('[data-testid=forget-start]').click();
    const preview = panel.locator('[data-testid=forget-preview]');
    await preview.waitFor();
    expect(await preview.locator('[data-testid=forget-files]').textContent()).toMatch(/^1 file: sessions\/claude-code\//);
    expect(await preview.locator('[data-testid=forget-still]').textContent()).toContain('Your Markdown is not changed');
    await preview.locator('[data-testid=forget-confirm]').click();
    await page.locator('[data-testid=held-now]').click();
    await panel.locator('[data-testid=forget-done]').waitFor();
    expect(await panel.locator('[data-testid=forget-done]').textContent()).toContain('Session forgotten.');
    await page.locator('[data-testid=search-empty]').waitFor();

    // Re-ingesting does not bring it back; the transcript on disk is untouched.
    await call('sessions.ingest', { homes: { 'claude-code': claudeHome } });
    await page.click('[data-testid=provenance-close]');
    await page.fill('[data-testid=search-input]', 'pgdriver');
    await page.locator('[data-testid=search-empty]').waitFor();
    expect(fs.readFileSync(transcript).equals(original)).toBe(true);

    expect(problems).toEqual([]);
    await close();
  });
});
