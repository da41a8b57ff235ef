import type { Page } from 'playwright-core';

/** The note editor's content element (CodeMirror's contenteditable). */
export const EDITOR = '[data-testid=editor]';

/**
 * The text in the note editor, line by line as CodeMirror draws it (every line of a short note is
 * drawn; a long one is only drawn near the view, so use this for short notes only).
 */
export async function editorText(page: Page): Promise<string> {
  return page.$$eval(`${EDITOR} .cm-line`, (lines) => lines.map((line) => line.textContent ?? '').join('\n'));
}

/**
 * Replaces the editor's text as a person pasting it would: select all, then a paste event that
 * CodeMirror handles. Not `page.fill` or `keyboard.insertText`: Chromium's own editing commands
 * style the nodes they insert inline (blocked by the window's Content-Security-Policy and reported)
 * before CodeMirror redraws them.
 */
export async function fillEditor(page: Page, text: string): Promise<void> {
  await page.locator(EDITOR).click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.locator(EDITOR).evaluate((element, pasted) => {
    // The e2e project has no DOM types: the page's constructors, typed as much as used here.
    const page = globalThis as unknown as { DataTransfer: new () => { setData(type: string, value: string): void }; ClipboardEvent: new (type: string, init: object) => Event };
    const data = new page.DataTransfer();
    data.setData('text/plain', pasted);
    element.dispatchEvent(new page.ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}
