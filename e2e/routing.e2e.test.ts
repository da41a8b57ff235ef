import { describe, expect, it } from 'vitest';
import { chromiumPath, newAppPage, saveScreenshot, waitForIndexReady } from './support/browser.js';
import { useServedApp } from './support/suite.js';

const NOTE = 'memory/2026-03-09.md';

/** The page globals these checks read inside the page (the e2e project has no DOM types). */
interface PageGlobals {
  location: { hash: string };
  document: { activeElement: { getAttribute(name: string): string | null } | null };
}

describe.skipIf(!chromiumPath)('Routes and keys', () => {
  const app = useServedApp();

  it('gives every place a URL without the token, and Back, Forward, reload and deep links work', async () => {
    const { page, problems, close } = await newAppPage(app.browser);
    await page.goto(app.serve.launchUrl);
    await waitForIndexReady(page);
    const address = (): string => new URL(page.url()).hash;
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).location.hash === '#/search');
    expect(page.url()).not.toContain('token');

    await page.fill('[data-testid=search-input]', 'quillfeather');
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).location.hash === '#/search?q=quillfeather');

    await page.click('[data-testid=nav-memory]');
    await page.click(`[data-testid=file-item][data-path="${NOTE}"]`);
    await page.locator(`[data-testid=document][data-path="${NOTE}"]`).waitFor();
    expect(address()).toBe(`#/${'memory'}/${NOTE}`);

    await page.click('[data-testid=nav-status]');
    expect(address()).toBe('#/status');

    await page.goBack();
    await page.locator(`[data-testid=document][data-path="${NOTE}"]`).waitFor();
    await page.goBack();
    await page.waitForSelector('body[data-view="search"]');
    expect(await page.inputValue('[data-testid=search-input]')).toBe('quillfeather');
    await page.goForward();
    await page.locator(`[data-testid=document][data-path="${NOTE}"]`).waitFor();

    // Reload keeps the place (the token stays in this tab's session storage).
    await page.reload();
    await page.locator(`[data-testid=document][data-path="${NOTE}"]`).waitFor();
    expect(address()).toBe(`#/memory/${NOTE}`);

    // A deep link to lines: the file opens in source view with the lines marked.
    await page.goto(new URL(`#/memory/${NOTE}?line=3`, page.url()).toString());
    await page.locator('[data-testid=document] .src-line.is-hit').first().waitFor();
    const main = await page.locator('#main').innerText();
    expect(main.trim().length).toBeGreaterThan(20);
    await saveScreenshot(page, 'routing-deep-link');

    // A settings section.
    await page.goto(new URL('#/settings/models', page.url()).toString());
    await page.locator('[data-testid=settings-models]').waitFor();
    expect(await page.getAttribute('body', 'data-view')).toBe('settings');

    expect(problems).toEqual([]);
    await close();
  });

  it('Ctrl+K opens the palette to reach a note, "/" focuses search, "?" lists the shortcuts', async () => {
    const { page, problems, close } = await newAppPage(app.browser);
    await page.goto(app.serve.launchUrl);
    await waitForIndexReady(page);
    await page.click('[data-testid=nav-status]');

    await page.keyboard.press('Control+k');
    await page.locator('[data-testid=command-palette]').waitFor();
    await page.keyboard.type('2026-03-09');
    await page.locator('[data-testid=palette-item]').first().waitFor();
    await saveScreenshot(page, 'command-palette');
    await page.keyboard.press('Enter');
    await page.locator(`[data-testid=document][data-path="${NOTE}"]`).waitFor();
    expect(await page.locator('[data-testid=command-palette]').count()).toBe(0);

    await page.keyboard.press('/');
    await page.waitForSelector('body[data-view="search"]');
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).document.activeElement?.getAttribute('data-testid') === 'search-input');

    await page.locator('[data-testid=search-input]').blur();
    await page.keyboard.press('Shift+?');
    await page.locator('[data-testid=shortcuts-sheet]').waitFor();
    expect(await page.locator('[data-testid=shortcuts-sheet]').innerText()).toContain('command palette');
    await page.keyboard.press('Escape');
    await page.locator('[data-testid=shortcuts-sheet]').waitFor({ state: 'detached' });

    expect(problems).toEqual([]);
    await close();
  });
});
