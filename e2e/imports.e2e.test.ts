import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, launchChromium, newAppPage, saveScreenshot, waitForIndexReady, type LaunchedBrowser } from './support/browser.js';
import { ensureRendererBuilt } from './support/build.js';
import { startServe, type RunningServe } from './support/server.js';

/**
 * The Imports view against a real `reverie serve` whose user has Codex, Claude Code and Hermes
 * installed: the server runs with HOME pointing at a temporary home holding `~/.codex`,
 * `~/.claude` and `~/.hermes` (the tools' default homes; CODEX_HOME and HERMES_HOME unset).
 */

const CODEX_FILES: Record<string, string> = {
  'memories/MEMORY.md': ['# Codex memory', '', '- ledgerd migrations use goose; run `make migrate-check` after renaming.', ''].join('\n'),
  'memories/memory_summary.md': ['# Summary', '', '- Worked mostly on the invoice renderer this month.', ''].join('\n'),
};
const CLAUDE_PROJECT = '-home-ada-src-quillfeather';
const CLAUDE_FILES: Record<string, string> = {
  [`projects/${CLAUDE_PROJECT}/memory/MEMORY.md`]: ['# Quillfeather', '', '- [Stitching](stitching.md): the kettle stitch plan.', ''].join('\n'),
  [`projects/${CLAUDE_PROJECT}/memory/stitching.md`]: ['# Stitching', '', '- Kettle stitch every signature; linen thread, waxed.', ''].join('\n'),
};
const HERMES_MEMORY_LINE = 'Ada binds books with waxed linen thread from the Porto shop.';
const HERMES_FILES: Record<string, string> = {
  'memories/MEMORY.md': [HERMES_MEMORY_LINE, '§', 'The quince tree is pruned in late February.'].join('\n'),
  'memories/USER.md': ['Name: Ada Marlowe', '§', 'Prefers short answers.'].join('\n'),
};

/** The one destination that already exists in the workspace with different bytes. */
const CONFLICT_DEST = 'memory/imports/hermes/default/USER.md';
const CONFLICT_BYTES = Buffer.from('# Edited by hand after an earlier import\n\n- Name: Ada M.\n', 'utf8');
/** The item unticked in the preview. */
const UNTICKED_DEST = 'memory/imports/codex/memories/memory_summary.md';
/** The file opened from the report in Memory and in the Provenance inspector. */
const OPENED_DEST = 'memory/imports/hermes/default/MEMORY.md';

const STARTER_MEMORY = '# Memory\n\nLong-term memory: durable facts, decisions and context worth keeping.\n';
const STARTER_USER = '# User\n\nWho you are and how you like to work. Agents read this first.\n';

function writeTree(root: string, files: Record<string, string>): void {
  for (const [relative, text] of Object.entries(files)) {
    const file = path.join(root, ...relative.split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text, 'utf8');
  }
}

/** Every file under a folder with its SHA-256 and mtime: proof that nothing was touched. */
function hashTree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory()) stack.push(abs);
      else out[path.relative(root, abs)] = `${createHash('sha256').update(fs.readFileSync(abs)).digest('hex')}:${fs.statSync(abs).mtimeMs}`;
    }
  }
  return out;
}

/** A plan row by its destination (the destination cell's text). */
function planRow(page: Page, destination: string): Locator {
  return page.locator('[data-testid=import-item]', { has: page.locator('td.path-cell code', { hasText: new RegExp(`^${destination.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }) });
}

interface ProgressState {
  text: string;
  hasBar: boolean;
  max: string | null;
  value: string | null;
}

/**
 * Records every state of the progress area while an import runs (a small import is over too fast to
 * catch by polling). Runs in the page; e2e is type-checked without the DOM library, hence the string.
 */
const WATCH_PROGRESS = `(() => {
  const seen = [];
  window.__importProgress = seen;
  const record = () => {
    const el = document.querySelector('[data-testid=import-progress]');
    if (!el) return;
    const bar = el.querySelector('progress');
    const state = { text: el.textContent ?? '', hasBar: bar !== null, max: bar?.getAttribute('max') ?? null, value: bar?.getAttribute('value') ?? null };
    const last = seen.at(-1);
    if (!last || JSON.stringify(last) !== JSON.stringify(state)) seen.push(state);
  };
  new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
})()`;

async function watchProgress(page: Page): Promise<void> {
  await page.evaluate(WATCH_PROGRESS);
}

async function progressSeen(page: Page): Promise<ProgressState[]> {
  return (await page.evaluate('window.__importProgress')) as ProgressState[];
}

/** The computed background colour of a row's first cell. */
function background(row: Locator): Promise<string> {
  return row.locator('td').first().evaluate((td) => (globalThis as unknown as { getComputedStyle(el: unknown): { backgroundColor: string } }).getComputedStyle(td).backgroundColor);
}

describe.skipIf(!chromiumPath)('Imports view', () => {
  let base = '';
  let workspace = '';
  let userHome = '';
  let serve: RunningServe | undefined;
  let browser: LaunchedBrowser | undefined;
  const homes = (): string[] => ['.codex', '.claude', '.hermes'].map((name) => path.join(userHome, name));
  const inWorkspace = (relative: string): string => path.join(workspace, ...relative.split('/'));
  let sourcesBefore: string[] = [];

  beforeAll(async () => {
    ensureRendererBuilt();
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-e2e-imports-')));
    workspace = path.join(base, 'workspace');
    userHome = path.join(base, 'home');
    const dataDir = path.join(base, 'data');
    // A first launch: only the starter MEMORY.md and USER.md.
    fs.mkdirSync(path.join(workspace, 'memory'), { recursive: true });
    fs.mkdirSync(dataDir);
    fs.writeFileSync(path.join(workspace, 'MEMORY.md'), STARTER_MEMORY);
    fs.writeFileSync(path.join(workspace, 'USER.md'), STARTER_USER);
    writeTree(path.join(userHome, '.codex'), CODEX_FILES);
    writeTree(path.join(userHome, '.claude'), CLAUDE_FILES);
    writeTree(path.join(userHome, '.hermes'), HERMES_FILES);
    sourcesBefore = homes().map((h) => JSON.stringify(hashTree(h)));

    // The server process sees the temporary home as the user's home (only while it is spawned).
    const saved = { HOME: process.env.HOME, CODEX_HOME: process.env.CODEX_HOME, HERMES_HOME: process.env.HERMES_HOME };
    process.env.HOME = userHome;
    delete process.env.CODEX_HOME;
    delete process.env.HERMES_HOME;
    try {
      serve = await startServe(workspace, dataDir);
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    if (base) fs.rmSync(base, { recursive: true, force: true });
  });

  it('offers the import on an empty workspace and lists the detected sources with file counts', async () => {
    const { page, problems, close } = await newAppPage(browser!.context);
    await page.goto(serve!.launchUrl);
    await waitForIndexReady(page);

    // (a) First launch: the offer, and it opens the Imports view.
    const offer = page.locator('[data-testid=import-offer]');
    await offer.waitFor();
    expect(await offer.textContent()).toContain('Your workspace is empty');
    await saveScreenshot(page, 'imports-offer');
    await offer.locator('[data-testid=import-offer-open]').click();
    await page.waitForSelector('body[data-view="imports"]', { state: 'attached' });
    await page.locator('[data-testid=imports-view]').waitFor();

    // (b) Each tool at its default home under the (temporary) user home, with its file count.
    const expected: Array<[string, string, number]> = [
      ['codex', '.codex', 2],
      ['claude-code', '.claude', 2],
      ['hermes', '.hermes', 2],
    ];
    for (const [tool, dir, files] of expected) {
      const row = page.locator(`[data-testid=import-source-${tool}]`);
      await row.waitFor();
      expect(await row.getAttribute('data-found')).toBe('true');
      expect(await row.locator('.path-cell code').textContent()).toBe(path.join(userHome, dir));
      expect((await row.locator('[data-testid=import-source-files]').textContent())?.trim()).toBe(String(files));
    }
    // Nothing was planned or written yet.
    expect(fs.existsSync(inWorkspace('memory/imports'))).toBe(false);
    expect(await page.locator('[data-testid=import-reports]').textContent()).toContain('No imports yet.');

    expect(problems).toEqual([]);
    await close();
  });

  it('previews with a highlighted conflict and a toggle, applies with progress, reports, links into Memory and Provenance, and re-applies as a no-op', async () => {
    // A file at one destination with different bytes (an earlier import, edited since).
    fs.mkdirSync(path.dirname(inWorkspace(CONFLICT_DEST)), { recursive: true });
    fs.writeFileSync(inWorkspace(CONFLICT_DEST), CONFLICT_BYTES);

    const { page, problems, close } = await newAppPage(browser!.context);
    await page.goto(serve!.launchUrl);
    await waitForIndexReady(page);
    await page.click('[data-testid=nav-imports]');
    await page.locator('[data-testid=import-source-hermes][data-found=true]').waitFor();

    // (c) Preview: every item with its destination; the conflict is marked and highlighted.
    await page.click('[data-testid=import-preview]');
    const plan = page.locator('[data-testid=import-plan]');
    await plan.waitFor();
    expect(await plan.locator('[data-testid=import-plan-counts]').textContent()).toBe('5 new · 1 conflicting · 0 unchanged · 0 skipped');
    const destinations = await plan.locator('[data-testid=import-item] td.path-cell:nth-child(4) code').allTextContents();
    expect(destinations.sort()).toEqual(
      [
        'memory/imports/codex/memories/MEMORY.md',
        UNTICKED_DEST,
        `memory/imports/claude-code/${CLAUDE_PROJECT}/MEMORY.md`,
        `memory/imports/claude-code/${CLAUDE_PROJECT}/stitching.md`,
        OPENED_DEST,
        CONFLICT_DEST,
      ].sort(),
    );
    const groups = await plan.locator('[data-testid=import-group]').evaluateAll((els) => els.map((el) => el.getAttribute('data-group')));
    expect(groups).toEqual(['codex/memories', `claude-code/${CLAUDE_PROJECT}`, 'hermes/default']);

    const conflicts = plan.locator('[data-testid=import-item][data-status=conflict]');
    expect(await conflicts.count()).toBe(1);
    const conflictRow = planRow(page, CONFLICT_DEST);
    expect(await conflictRow.getAttribute('data-status')).toBe('conflict');
    expect(await conflictRow.textContent()).toContain('kept as is');
    const newBackground = await background(planRow(page, OPENED_DEST));
    expect(await background(conflictRow)).not.toBe(newBackground);

    // Untick one item.
    const toggle = page.getByRole('checkbox', { name: `Import ${UNTICKED_DEST}`, exact: true });
    expect(await toggle.isChecked()).toBe(true);
    await toggle.uncheck();
    expect(await planRow(page, UNTICKED_DEST).getAttribute('class')).toContain('is-excluded');
    expect(await page.locator('[data-testid=import-group][data-group="codex/memories"] .imports-group-head').textContent()).toContain('All (1/2)');
    expect(await page.isChecked('[data-testid=import-replace]')).toBe(false);
    const applyButton = page.locator('[data-testid=import-apply]');
    expect(await applyButton.textContent()).toBe('Import 4 files');
    await saveScreenshot(page, 'imports-preview');

    // (d) Apply: the progress area shows while it runs, then the report.
    await watchProgress(page);
    await applyButton.click();
    const report = page.locator('[data-testid=import-report]');
    await report.waitFor();
    await page.locator('[data-testid=import-progress]').waitFor({ state: 'detached' });
    const seen = await progressSeen(page);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((s) => s.hasBar)).toBe(true);
    expect(seen[0]!.text).toMatch(/^(Starting…|Checking the sources against the plan|Copying|Moving files into place|Finishing)/);
    // The engine's import-progress events (over /api/events) drive a determinate bar with a phase.
    expect(seen.some((s) => s.max !== null && /^(Checking the sources against the plan|Copying|Moving files into place) \d+ of \d+$|^Finishing$/.test(s.text))).toBe(true);

    expect(await report.getAttribute('data-outcome')).toBe('completed');
    expect(await report.locator('[data-testid=import-report-counts]').textContent()).toBe('4 copied · 0 replaced · 0 unchanged · 2 skipped');
    const written = await report.locator('[data-testid=import-open-memory]').allTextContents();
    expect(written.sort()).toEqual(
      ['memory/imports/codex/memories/MEMORY.md', `memory/imports/claude-code/${CLAUDE_PROJECT}/MEMORY.md`, `memory/imports/claude-code/${CLAUDE_PROJECT}/stitching.md`, OPENED_DEST].sort(),
    );
    const skipped = report.locator('[data-testid=import-report-skipped]');
    expect(await skipped.textContent()).toContain(`${UNTICKED_DEST} — excluded from this import`);
    expect(await skipped.textContent()).toContain(`${CONFLICT_DEST} — destination exists with different content`);
    const reportPath = await report.locator('[data-testid=import-report-path]').textContent();
    expect(reportPath && fs.existsSync(reportPath)).toBe(true);
    expect(await page.locator('[data-testid=import-report-row]').count()).toBe(1);
    await saveScreenshot(page, 'imports-report');

    // On disk: the unticked item was not copied, the conflict kept its bytes, copies are exact, sources untouched.
    expect(fs.existsSync(inWorkspace(UNTICKED_DEST))).toBe(false);
    expect(fs.readFileSync(inWorkspace(CONFLICT_DEST)).equals(CONFLICT_BYTES)).toBe(true);
    expect(fs.readFileSync(inWorkspace(OPENED_DEST), 'utf8')).toBe(HERMES_FILES['memories/MEMORY.md']);
    expect(fs.readFileSync(inWorkspace('memory/imports/codex/memories/MEMORY.md'), 'utf8')).toBe(CODEX_FILES['memories/MEMORY.md']);
    expect(homes().map((h) => JSON.stringify(hashTree(h)))).toEqual(sourcesBefore);

    // (e) The report's file link opens the file in the Memory view…
    await report.locator('[data-testid=import-open-memory]', { hasText: OPENED_DEST }).click();
    await page.waitForSelector('body[data-view="memory"]', { state: 'attached' });
    const doc = page.locator(`[data-testid=document][data-path="${OPENED_DEST}"]`);
    await doc.waitFor();
    await doc.getByText(HERMES_MEMORY_LINE).first().waitFor();
    expect(await page.locator(`[data-testid=file-item][data-path="${OPENED_DEST}"]`).count()).toBe(1);
    await saveScreenshot(page, 'imports-memory');

    // …and "Where from?" opens the Provenance inspector: agent-written, via an import by Hermes.
    await page.click('[data-testid=nav-imports]');
    await report.waitFor(); // the report stays on screen until closed
    await report.locator('li', { hasText: OPENED_DEST }).locator('[data-testid=import-where-from]').click();
    const panel = page.locator('[data-testid=provenance-panel][data-state=ready]');
    await panel.waitFor();
    expect(await panel.getAttribute('data-ref')).toBe(`${OPENED_DEST}:1`);
    expect(await panel.locator('[data-testid=provenance-location]').textContent()).toMatch(new RegExp(`^${OPENED_DEST}:1-\\d+$`));
    expect(await panel.locator('[data-testid=provenance-origin]').getAttribute('data-origin')).toBe('agent');
    expect(await panel.locator('[data-testid=provenance-source]').textContent()).toBe('memory');
    expect(await panel.locator('[data-testid=provenance-text]').textContent()).toContain(HERMES_MEMORY_LINE);
    expect(await panel.locator('[data-testid=provenance-all-yours]').count()).toBe(0);
    const line = panel.locator('[data-testid=provenance-line][data-line="1"]');
    expect(await line.getAttribute('data-origin')).toBe('agent');
    const writtenBy = await line.locator('td').nth(2).textContent();
    expect(writtenBy).toContain('imported from Hermes (MEMORY.md)');
    // The original file's full path is a technical fact: behind "Details", with a copy button.
    expect(writtenBy).not.toContain('{');
    const details = line.locator('[data-testid=provenance-write-details]');
    expect(await details.getAttribute('open')).toBeNull();
    expect(await details.textContent()).toContain(path.join(userHome, '.hermes', 'memories', 'MEMORY.md'));
    await saveScreenshot(page, 'imports-provenance');
    await page.keyboard.press('Escape');
    await page.locator('[data-testid=provenance-panel]').waitFor({ state: 'detached' });

    // (f) Preview again with the same choice: everything copied is unchanged; the import copies nothing.
    await page.click('[data-testid=import-preview]');
    await plan.waitFor();
    await report.waitFor({ state: 'detached' });
    expect(await plan.locator('[data-testid=import-plan-counts]').textContent()).toBe('1 new · 1 conflicting · 4 unchanged · 0 skipped');
    expect(await planRow(page, UNTICKED_DEST).getAttribute('data-status')).toBe('new');
    expect(await planRow(page, CONFLICT_DEST).getAttribute('data-status')).toBe('conflict');
    await page.getByRole('checkbox', { name: `Import ${UNTICKED_DEST}`, exact: true }).uncheck();
    expect(await applyButton.textContent()).toBe('Import 0 files');
    await applyButton.click();
    await report.waitFor();
    expect(await report.locator('[data-testid=import-report-counts]').textContent()).toBe('0 copied · 0 replaced · 4 unchanged · 2 skipped');
    expect(await report.locator('[data-testid=import-open-memory]').count()).toBe(0);
    await page.locator('[data-testid=import-report-row]').nth(1).waitFor();
    expect(await page.locator('[data-testid=import-report-row]').count()).toBe(2);

    expect(fs.existsSync(inWorkspace(UNTICKED_DEST))).toBe(false);
    expect(fs.readFileSync(inWorkspace(CONFLICT_DEST)).equals(CONFLICT_BYTES)).toBe(true);
    expect(homes().map((h) => JSON.stringify(hashTree(h)))).toEqual(sourcesBefore);

    expect(problems).toEqual([]);
    await close();
  });
});
