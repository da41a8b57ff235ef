import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chromiumPath, newAppPage, saveScreenshot, waitForIndexReady } from './support/browser.js';
import { EDITOR, editorText, fillEditor } from './support/editor.js';
import { useServedApp } from './support/suite.js';

const NOTE = 'memory/2026-03-09.md';

describe.skipIf(!chromiumPath)('Memory view editing', () => {
  const app = useServedApp();

  it('saves an edit to disk, and refuses to overwrite a file changed behind the editor', async () => {
    const { page, problems, close } = await newAppPage(app.browser);
    await page.goto(app.serve.launchUrl);
    await waitForIndexReady(page);
    const onDisk = (): string => fs.readFileSync(app.workspace.file(NOTE), 'utf8');

    await page.click('[data-testid=nav-memory]');
    await page.click(`[data-testid=file-item][data-path="${NOTE}"]`);
    await page.locator(`[data-testid=document][data-path="${NOTE}"] [data-testid=rendered-view]`).waitFor();

    // 1. A normal edit reaches the disk.
    const edited = '# 2026-03-09\n\n- Drafted the Quillfeather stitching plan.\n- Bought marmalade-8841 for the pantry.\n';
    await page.click('[data-testid=edit-button]');
    await fillEditor(page, edited);
    expect(await page.getAttribute('body', 'data-unsaved-edits')).toBe('true');
    await page.click('[data-testid=save-button]');
    await page.locator('[data-testid=saved-notice]').waitFor();
    expect(onDisk()).toBe(edited);
    expect(await page.locator('[data-testid=rendered-view]').textContent()).toContain('marmalade-8841');

    // 2. The file changes on disk while the editor is open: the save is refused, nothing is lost.
    await page.click('[data-testid=edit-button]');
    await page.locator('[data-testid=editor]').waitFor();
    const behindTheEditor = '# 2026-03-09\n\nRewritten by another program.\n';
    fs.writeFileSync(app.workspace.file(NOTE), behindTheEditor, 'utf8');
    const typed = edited + '- My precious words, typed in the editor.\n';
    await fillEditor(page, typed);
    await page.click('[data-testid=save-button]');

    const conflict = page.locator('[data-testid=conflict-panel]');
    await conflict.waitFor();
    expect(await conflict.locator('[data-testid=conflict-message]').textContent()).toContain('changed on disk');
    // The panel shows what differs: the other program's line against the person's.
    await conflict.locator('[data-testid=conflict-diff]').waitFor();
    expect(await conflict.locator('[data-testid=diff-disk]').allTextContents()).toContain('− Rewritten by another program.\n');
    expect((await conflict.locator('[data-testid=diff-yours]').allTextContents()).join('')).toContain('My precious words');
    expect(onDisk()).toBe(behindTheEditor);
    expect(await editorText(page)).toBe(typed);
    await saveScreenshot(page, 'memory-conflict');

    // "Keep editing" hides the panel and keeps the text.
    await page.click('[data-testid=conflict-keep]');
    await conflict.waitFor({ state: 'detached' });
    expect(await editorText(page)).toBe(typed);
    expect(onDisk()).toBe(behindTheEditor);

    // "Reload from disk" asks first, then shows what is on disk.
    await page.click('[data-testid=save-button]');
    await conflict.waitFor();
    let question = '';
    page.once('dialog', (dialog) => {
      question = dialog.message();
      void dialog.accept();
    });
    await page.click('[data-testid=conflict-reload]');
    await page.locator('[data-testid=editor]').waitFor({ state: 'detached' });
    expect(question).toMatch(/discard/i);
    await page.locator('[data-testid=document] .doc-body', { hasText: 'Rewritten by another program' }).waitFor();
    expect(onDisk()).toBe(behindTheEditor);
    expect(await page.getAttribute('body', 'data-unsaved-edits')).toBe('false');

    expect(problems.filter((p) => !p.includes('409'))).toEqual([]);
    await close();
  });

  it('highlights Markdown, completes [[ with note names, and keeps "?" and "/" as typed characters', async () => {
    const { page, problems, close } = await newAppPage(app.browser);
    await page.goto(app.serve.launchUrl);
    await waitForIndexReady(page);
    await page.click('[data-testid=nav-memory]');
    await page.click(`[data-testid=file-item][data-path="${NOTE}"]`);
    await page.click('[data-testid=edit-button]');
    await page.locator(EDITOR).waitFor();

    // Markdown is highlighted: the heading line carries CodeMirror's heading token.
    await page.locator(`${EDITOR} .tok-heading`).first().waitFor();

    // "[[" offers note names; Enter inserts the chosen one and closes the link.
    await page.click(`${EDITOR} .cm-line >> nth=-1`);
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nSee [[MEMO');
    const option = page.locator('.cm-tooltip-autocomplete li', { hasText: 'MEMORY' }).first();
    await option.waitFor();
    // CodeMirror ignores Enter for 75 ms after the list opens (its interactionDelay, against accidental picks).
    await page.waitForTimeout(200);
    await page.keyboard.press('Enter');
    expect(await editorText(page)).toContain('See [[MEMORY]]');

    // "?" and "/" are text in the editor, not the window's shortcuts.
    await page.keyboard.type(' Why? a/b');
    expect(await editorText(page)).toContain('See [[MEMORY]] Why? a/b');
    expect(await page.locator('[data-testid=shortcuts-sheet]').count()).toBe(0);
    expect(await page.getAttribute('body', 'data-view')).toBe('memory');
    await saveScreenshot(page, 'memory-editor-codemirror');

    await page.keyboard.press('Control+s');
    await page.locator('[data-testid=saved-notice]').waitFor();
    expect(fs.readFileSync(app.workspace.file(NOTE), 'utf8')).toContain('See [[MEMORY]] Why? a/b');
    expect(problems).toEqual([]);
    await close();
  });

  it('types into a long note: the save writes exactly the typed text, the draft and its undo survive a view switch, the conflict diff follows the typing', async () => {
    // Past the viewport-highlighting threshold (256k characters), so the long-note path is the one tested.
    const LONG = 'memory/long.md';
    const original = '# Long\n\n' + Array.from({ length: 5_000 }, (_, i) => `- Item ${i} about the Quillfeather stitching plan and the pantry.\n`).join('');
    expect(original.length).toBeGreaterThan(256 * 1024);
    fs.writeFileSync(app.workspace.file(LONG), original, 'utf8');
    const onDisk = (): string => fs.readFileSync(app.workspace.file(LONG), 'utf8');
    const { page, problems, close } = await newAppPage(app.browser);
    await page.goto(app.serve.launchUrl);
    await waitForIndexReady(page);
    await page.evaluate(() => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = '#/memory/memory/long.md';
    });
    await page.click('[data-testid=edit-button]', { timeout: 60_000 });
    const thirdLine = page.locator(`${EDITOR} .cm-line >> nth=2`);
    await thirdLine.waitFor();
    // Highlighted although only the lines in view are parsed.
    await page.locator(`${EDITOR} .tok-heading`).first().waitFor();

    // Key by key, at the start of "- Item 0".
    await thirdLine.click();
    await page.keyboard.press('Home');
    await page.keyboard.type('Typed here. ');
    expect(await thirdLine.textContent()).toBe('Typed here. - Item 0 about the Quillfeather stitching plan and the pantry.');
    expect(await page.getAttribute('body', 'data-unsaved-edits')).toBe('true');
    await page.locator('[data-testid=nav-unsaved]').waitFor();

    // Another view and back: the same text, and Undo still knows what was typed.
    await page.click('[data-testid=nav-search]');
    await page.locator(EDITOR).waitFor({ state: 'detached' });
    await page.click('[data-testid=nav-memory]');
    await thirdLine.waitFor();
    expect(await thirdLine.textContent()).toMatch(/^Typed here\. - Item 0/);
    await page.locator(EDITOR).focus();
    // One Undo normally (typing within half a second is one step); a loaded machine may split it.
    const untyped = '- Item 0 about the Quillfeather stitching plan and the pantry.';
    for (let i = 0; i < 12 && (await thirdLine.textContent()) !== untyped; i++) await page.keyboard.press('ControlOrMeta+z');
    expect(await thirdLine.textContent()).toBe(untyped);
    expect(await page.getAttribute('body', 'data-unsaved-edits')).toBe('false');
    for (let i = 0; i < 12 && !(await thirdLine.textContent())?.startsWith('Typed here. '); i++) await page.keyboard.press('ControlOrMeta+Shift+z');
    expect(await thirdLine.textContent()).toMatch(/^Typed here\. - Item 0/);

    // Saving writes exactly the typed text, nothing else changed.
    await page.keyboard.press('ControlOrMeta+s');
    await page.locator('[data-testid=saved-notice]').waitFor();
    const typed = original.replace('- Item 0 ', 'Typed here. - Item 0 ');
    expect(onDisk()).toBe(typed);
    expect(await page.getAttribute('body', 'data-unsaved-edits')).toBe('false');

    // The file changes behind the editor: the save is refused and the diff shows both sides...
    await page.click('[data-testid=edit-button]');
    await thirdLine.waitFor();
    const behind = typed.replace('- Item 10 ', '- Item 10 (changed elsewhere) ');
    fs.writeFileSync(app.workspace.file(LONG), behind, 'utf8');
    await thirdLine.click();
    await page.keyboard.press('End');
    await page.keyboard.type(' More.');
    await page.click('[data-testid=save-button]');
    const conflict = page.locator('[data-testid=conflict-panel]');
    await conflict.locator('[data-testid=conflict-diff]').waitFor();
    const yours = async (): Promise<string> => (await conflict.locator('[data-testid=diff-yours]').allTextContents()).join('');
    expect(await yours()).toContain('More.');
    expect(await yours()).not.toContain('Live.');
    expect((await conflict.locator('[data-testid=diff-disk]').allTextContents()).join('')).toContain('(changed elsewhere)');
    // ...and follows what is typed while it is open.
    await thirdLine.click();
    await page.keyboard.type(' Live.');
    await expect.poll(yours).toContain('Live.');
    expect(onDisk()).toBe(behind);
    await saveScreenshot(page, 'memory-long-note-conflict');

    expect(problems.filter((p) => !p.includes('409'))).toEqual([]);
    await close();
  }, 180_000);

  it('opens a 20 MB note read-only with a notice, and never offers to edit it', async () => {
    // 20 MB of plausible daily-note lines, written behind the window's back.
    const line = '- Checked the Quillfeather stitching plan and the marmalade pantry list again today.\n';
    const big = '# Big\n\n' + line.repeat(Math.ceil((20 * 1024 * 1024) / line.length));
    fs.writeFileSync(app.workspace.file('memory/big.md'), big, 'utf8');
    const { page, problems, close } = await newAppPage(app.browser);
    await page.goto(app.serve.launchUrl);
    await waitForIndexReady(page);
    await page.evaluate(() => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = '#/memory/memory/big.md';
    });
    const notice = page.locator('[data-testid=large-note-notice]');
    await notice.waitFor({ timeout: 60_000 });
    expect(await notice.textContent()).toMatch(/too large to edit here.*read-only/);
    const view = page.locator('[data-testid=read-only-view]');
    await view.waitFor();
    expect(await view.getAttribute('contenteditable')).toBe('false');
    expect(await view.locator('.cm-line').first().textContent()).toBe('# Big');
    // Only the lines in view are drawn, not 250,000 of them.
    expect(await view.locator('.cm-line').count()).toBeLessThan(2_000);
    expect(await page.locator('[data-testid=edit-button]').count()).toBe(0);
    await saveScreenshot(page, 'memory-large-note');
    expect(fs.statSync(app.workspace.file('memory/big.md')).size).toBe(Buffer.byteLength(big));
    expect(problems).toEqual([]);
    await close();
  }, 180_000);
});
