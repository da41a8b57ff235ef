import { useRef, useState } from 'react';
import { copyText } from '../../components/copyText.js';
import './CopyBox.css';

type CopyState = 'idle' | 'copied' | 'selected';

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
