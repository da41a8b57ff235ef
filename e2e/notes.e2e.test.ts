import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chromiumPath, newAppPage, saveScreenshot, waitForIndexReady } from './support/browser.js';
import { fillEditor } from './support/editor.js';
import { useServedApp } from './support/suite.js';

describe.skipIf(!chromiumPath)('Notes in the window', () => {
  const app = useServedApp();

  it('creates, renames, deletes and restores a note; refuses a bad name with a sentence', async () => {
    const { page, problems, close } = await newAppPage(app.browser);
    await page.goto(app.serve.launchUrl);
    await waitForIndexReady(page);
    await page.click('[data-testid=nav-memory]');

    // A bad name is refused with a sentence; the dialog stays.
    await page.click('[data-testid=new-note]');
    await page.fill('[data-testid=note-name]', 'what?');
    await page.click('[data-testid=note-dialog-submit]');
    expect(await page.locator('[data-testid=note-dialog-error]').textContent()).toMatch(/contains "\?"/);

    // Create: it opens in the editor, and exists on disk.
    await page.fill('[data-testid=note-name]', 'projects/Tax module');
    await page.click('[data-testid=note-dialog-submit]');
    await page.locator('[data-testid=document][data-path="memory/projects/Tax module.md"] [data-testid=editor]').waitFor();
    expect(fs.readFileSync(app.workspace.file('memory/projects/Tax module.md'), 'utf8')).toBe('# Tax module\n\n');
    await fillEditor(page, '# Tax module\n\nDana owns it.\n');
    await page.keyboard.press('Control+s');
    await page.locator('[data-testid=saved-notice]').waitFor();
    expect(fs.readFileSync(app.workspace.file('memory/projects/Tax module.md'), 'utf8')).toBe('# Tax module\n\nDana owns it.\n');

    // Rename (move to another folder).
    await page.click('[data-testid=rename-button]');
    await page.fill('[data-testid=note-name]', 'work/tax-module');
    await page.click('[data-testid=note-dialog-submit]');
    await page.locator('[data-testid=document][data-path="memory/work/tax-module.md"]').waitFor();
    expect(fs.existsSync(app.workspace.file('memory/projects/Tax module.md'))).toBe(false);
    expect(fs.readFileSync(app.workspace.file('memory/work/tax-module.md'), 'utf8')).toContain('Dana owns it.');
    await page.locator('[data-testid=file-item][data-path="memory/work/tax-module.md"]').waitFor();

    // The tree filter finds it.
    await page.fill('[data-testid=tree-filter]', 'tax');
    expect(await page.locator('[data-testid=file-item]').count()).toBe(1);
    await page.fill('[data-testid=tree-filter]', '');

    // Delete, then Undo.
    await page.click('[data-testid=delete-button]');
    await page.locator('[data-testid=undo-delete]').waitFor();
    expect(fs.existsSync(app.workspace.file('memory/work/tax-module.md'))).toBe(false);
    await saveScreenshot(page, 'notes-deleted-undo');
    await page.click('[data-testid=undo-delete-button]');
    await page.locator('[data-testid=document][data-path="memory/work/tax-module.md"]').waitFor();
    expect(fs.readFileSync(app.workspace.file('memory/work/tax-module.md'), 'utf8')).toContain('Dana owns it.');

    // Today's daily note opens (created when missing).
    await page.click('[data-testid=daily-note]');
    await page.locator('[data-testid=document][data-path^="memory/20"] [data-testid=editor]').waitFor();
    const daily = await page.getAttribute('[data-testid=document]', 'data-path');
    expect(daily).toMatch(/^memory\/\d{4}-\d{2}-\d{2}\.md$/);
    expect(fs.existsSync(app.workspace.file(daily!))).toBe(true);
    const body = await page.locator('body').innerText();
    expect(body.trim().length).toBeGreaterThan(40);
    await saveScreenshot(page, 'notes-daily');

    // Wiki-links open notes or offer to create them; a #tag searches.
    await page.click('[data-testid=new-note]');
    await page.fill('[data-testid=note-name]', 'links');
    await page.click('[data-testid=note-dialog-submit]');
    await page.locator('[data-testid=document][data-path="memory/links.md"] [data-testid=editor]').waitFor();
    await fillEditor(page, '# Links\n\nSee [[2026-03-09]] and [[Lisbon trip|the trip]]. #garden\nNot a note: [[../../etc/passwd]]\n');
    await page.keyboard.press('Control+s');
    await page.locator('[data-testid=saved-notice]').waitFor();
    await page.locator('[data-testid=rendered-view] [data-testid=wiki-link]').first().waitFor();
    await page.click('[data-testid=wiki-link][data-target="Lisbon trip"]');
    // The dialog opens first and is filled in on the next render: wait for the name, up to 10 s.
    for (let i = 0; i < 100 && (await page.inputValue('[data-testid=note-name]').catch(() => '')) !== 'Lisbon trip'; i++) await page.waitForTimeout(100);
    expect(await page.inputValue('[data-testid=note-name]')).toBe('Lisbon trip');
    await page.keyboard.press('Escape');
    // A link out of the workspace is refused with a sentence; nothing is opened or created.
    await page.click('[data-testid=wiki-link][data-target="../../etc/passwd"]');
    expect(await page.locator('[data-testid=link-refused]').textContent()).toMatch(/points outside the workspace/);
    expect(await page.locator('[data-testid=note-dialog]').count()).toBe(0);
    await page.click('[data-testid=wiki-link][data-target="2026-03-09"]');
    await page.locator('[data-testid=document][data-path="memory/2026-03-09.md"]').waitFor();
    // "Linked from" names the note that links here; a click opens it at that line.
    const backlink = page.locator('[data-testid=backlink][data-path="memory/links.md"]');
    await backlink.waitFor();
    expect(await backlink.getAttribute('data-line')).toBe('3');
    expect(await backlink.textContent()).toContain('See [[2026-03-09]]');
    await saveScreenshot(page, 'notes-linked-from');
    await page.goBack();
    await page.locator('[data-testid=document][data-path="memory/links.md"] [data-testid=tag-link]').waitFor();
    await page.click('[data-testid=tag-link]');
    await page.waitForSelector('body[data-view="search"]');
    expect(await page.inputValue('[data-testid=search-input]')).toBe('#garden');

    // 400: the refused bad name; 404: opening [[Lisbon trip]] first asks for a note that does not exist yet.
    expect(problems.filter((p) => !p.includes('400') && !p.includes('404'))).toEqual([]);
    await close();
  });
});
