import { useEffect, useRef } from 'react';
import { SHORTCUTS } from './commands.js';

/** "?": every key the window answers to. */
export function ShortcutsSheet({ onClose }: { onClose(): void }) {
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => closeRef.current?.focus(), []);
  return (
    <div className="overlay" role="presentation" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="palette shortcuts-sheet" role="dialog" aria-modal="true" aria-labelledby="shortcuts-heading" data-testid="shortcuts-sheet">
        <h2 id="shortcuts-heading">Keyboard shortcuts</h2>
        <dl className="shortcut-list">
          {SHORTCUTS.map((s) => (
            <div key={s.keys} className="shortcut-row">
              <dt>
                <kbd>{s.keys}</kbd>
              </dt>
              <dd>{s.action}</dd>
            </div>
          ))}
        </dl>
        <button ref={closeRef} type="button" className="button" onClick={onClose} data-testid="shortcuts-close">
          Close
        </button>
      </div>
    </div>
  );
}
