import type { Page } from 'playwright-core';

/** What one view at one window size got wrong, each entry a sentence naming the element. */
export interface ViewAudit {
  overflowing: string[];
  clippedColumns: string[];
  internalIds: string[];
}

/**
 * Text a person should never have to read in the window: record ids, hashes, process ids, raw
 * JSON, raw validation messages and command lines offered instead of a button.
 */
export const INTERNAL_TEXT: ReadonlyArray<readonly [string, RegExp]> = [
  ['a chunk id', /\bchunk:\d+/],
  ['a record id', /\b(?:dream|candidate|entity|agent|import|run|preimage|intent):[\w-]{4,}/],
  ['a hash', /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{12,}\b/],
  ['a labelled hash', /\bhash:\S/i],
  ['a process id', /\bpid\b/i],
  ['JSON', /[{[]\s*"[\w-]+"\s*:/],
  ['a raw validation message', /\b(?:Too (?:big|small): expected|Invalid (?:input|option): expected|expected (?:number|string|boolean), received)/],
  ['a command line', /\b(?:mkdir -p|reverie (?:agents|models|import|index|dream|notes) [a-z]+)\b/],
  ['a mangled folder name', /(?:^|\s)-home-[\w-]+/],
];

/**
 * Runs in the page (the e2e project has no DOM types, so it is a string). Finds elements that
 * reach outside the window, table headers cut off by their container, and the visible text.
 */
const MEASURE_PAGE = `(() => {
  const vw = document.documentElement.clientWidth;
  const vh = document.documentElement.clientHeight;
  const name = (el) => {
    const testId = el.getAttribute('data-testid');
    const cls = typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\\s+/).slice(0, 2).join('.') : '';
    const text = (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    return el.tagName.toLowerCase() + (testId ? '[data-testid=' + testId + ']' : cls) + (text ? ' "' + text + '"' : '');
  };
  const isShown = (el) => {
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  /** The part of the window an element can paint into: its ancestors' overflow boxes cut it. */
  const clipOf = (el) => {
    let left = -Infinity, right = Infinity, top = -Infinity, bottom = Infinity;
    for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const style = getComputedStyle(a);
      const r = a.getBoundingClientRect();
      if (style.overflowX !== 'visible') { left = Math.max(left, r.left); right = Math.min(right, r.right); }
      if (style.overflowY !== 'visible') { top = Math.max(top, r.top); bottom = Math.min(bottom, r.bottom); }
    }
    return { left, right, top, bottom };
  };
  const overflowing = [];
  const root = document.scrollingElement || document.documentElement;
  if (root.scrollWidth > vw + 1) overflowing.push('the page scrolls sideways (' + root.scrollWidth + ' px wide in a ' + vw + ' px window)');
  if (root.scrollHeight > vh + 1) overflowing.push('the page itself scrolls (' + root.scrollHeight + ' px tall in a ' + vh + ' px window): something spills below the window');
  for (const el of document.body.querySelectorAll('*')) {
    if (!isShown(el)) continue;
    const r = el.getBoundingClientRect();
    const clip = clipOf(el);
    const left = Math.max(r.left, clip.left), right = Math.min(r.right, clip.right);
    const top = Math.max(r.top, clip.top), bottom = Math.min(r.bottom, clip.bottom);
    if (right <= left || bottom <= top) continue; // scrolled or clipped out of sight
    if (right > vw + 1 || left < -1) overflowing.push(name(el) + ' reaches ' + Math.round(right > vw ? right - vw : -left) + ' px past the window');
    else if (bottom > vh + 1) overflowing.push(name(el) + ' reaches ' + Math.round(bottom - vh) + ' px below the window');
    const style = getComputedStyle(el);
    const scrollsSideways = (style.overflowX === 'auto' || style.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1;
    if (scrollsSideways && !el.closest('pre, code, .cm-editor, canvas')) overflowing.push(name(el) + ' scrolls sideways (' + (el.scrollWidth - el.clientWidth) + ' px hidden)');
  }
  const clippedColumns = [];
  for (const table of document.querySelectorAll('table')) {
    if (!isShown(table)) continue;
    const clip = clipOf(table);
    const cells = [...table.querySelectorAll('thead th'), ...(table.tBodies[0] && table.tBodies[0].rows[0] ? table.tBodies[0].rows[0].cells : [])];
    for (const cell of cells) {
      if (!isShown(cell) || cell.closest('.visually-hidden')) continue;
      const r = cell.getBoundingClientRect();
      const limitRight = Math.min(clip.right, vw);
      const limitLeft = Math.max(clip.left, 0);
      if (r.right > limitRight + 1 || r.left < limitLeft - 1) clippedColumns.push(name(table) + ': ' + name(cell) + ' is cut off at the edge');
      else if (r.width < 24 && (cell.textContent || '').trim()) clippedColumns.push(name(table) + ': ' + name(cell) + ' is squeezed to ' + Math.round(r.width) + ' px');
    }
  }
  return { overflowing, clippedColumns, text: document.body.innerText };
})()`;

export async function auditView(page: Page): Promise<ViewAudit> {
  const measured = (await page.evaluate(MEASURE_PAGE)) as { overflowing: string[]; clippedColumns: string[]; text: string };
  const internalIds: string[] = [];
  for (const line of measured.text.split('\n')) {
    for (const [what, pattern] of INTERNAL_TEXT) {
      const match = pattern.exec(line);
      if (match) internalIds.push(`${what} "${match[0]}" in "${line.trim().slice(0, 100)}"`);
    }
  }
  return { overflowing: unique(measured.overflowing), clippedColumns: unique(measured.clippedColumns), internalIds: unique(internalIds) };
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
