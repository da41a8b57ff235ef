/**
 * Selects the whole text of an element, so Ctrl+C / ⌘C copies it (where the clipboard API is
 * unavailable or refused).
 */
function selectAll(element: HTMLElement): void {
  const selection = window.getSelection();
  if (!selection) return;
  const range = document.createRange();
  range.selectNodeContents(element);
  selection.removeAllRanges();
  selection.addRange(range);
}

/** Writes to the clipboard when the browser allows it; otherwise selects the text for a manual copy. */
export async function copyText(text: string, element: HTMLElement | null): Promise<'copied' | 'selected'> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return 'copied';
    }
  } catch (error) {
    // Refused (no permission, no focus): selecting the text lets the person copy it by hand.
    console.warn('Clipboard refused; selecting the text instead.', error);
  }
  if (element) selectAll(element);
  return 'selected';
}
