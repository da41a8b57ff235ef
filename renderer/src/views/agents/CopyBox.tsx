import { useRef, useState } from 'react';
import './CopyBox.css';

type CopyState = 'idle' | 'copied' | 'selected';

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
  } catch {
    // refused (no permission, no focus): fall back to selecting
  }
  if (element) selectAll(element);
  return 'selected';
}

/** Preformatted text with a Copy button. */
export function CopyBox({ text, testId, label, className }: { text: string; testId: string; label: string; className?: string }) {
  const ref = useRef<HTMLPreElement>(null);
  // What was copied, and how: a new text (another token) starts over at idle.
  const [copied, setCopied] = useState<{ text: string; state: CopyState } | null>(null);
  const state: CopyState = copied?.text === text ? copied.state : 'idle';
  return (
    <div className={`copy-box${className ? ` ${className}` : ''}`} data-testid={testId}>
      <pre ref={ref} className="copy-box-text" data-testid={`${testId}-text`} aria-label={label}>
        {text}
      </pre>
      <div className="copy-box-actions">
        <button
          type="button"
          className="button button-small"
          data-testid={`${testId}-copy`}
          aria-label={`Copy ${label}`}
          onClick={() => void copyText(text, ref.current).then((result) => setCopied({ text, state: result }))}
        >
          Copy
        </button>
        <span className="muted copy-box-state" role="status">
          {state === 'copied' && 'Copied'}
          {state === 'selected' && 'Selected: press Ctrl+C (⌘C) to copy'}
        </span>
      </div>
    </div>
  );
}
