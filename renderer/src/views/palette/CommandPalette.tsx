import { useMemo, useRef, useState, useEffect, type KeyboardEvent } from 'react';
import { useReverie, useReverieStore } from '../../store/useReverie.js';
import { filterCommands, paletteCommands } from './commands.js';

/** Ctrl/Cmd+K: type a few letters of a view, a setting or a note's name, Enter to go there. */
export function CommandPalette({ onClose }: { onClose(): void }) {
  const store = useReverieStore();
  const files = useReverie((s) => s.memory.files);
  const [text, setText] = useState('');
  const [selected, setSelected] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);
  // Rebuilt when the files change: the palette lists every memory file.
  const all = useMemo(() => (files ? paletteCommands(store.getState()) : []), [files, store]);
  const shown = useMemo(() => filterCommands(all, text), [all, text]);

  useEffect(() => inputRef.current?.focus(), []);

  function run(index: number): void {
    const command = shown[index];
    if (!command) return;
    onClose();
    command.run(store.getState());
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>): void {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const delta = event.key === 'ArrowDown' ? 1 : -1;
      setSelected((i) => Math.min(Math.max(0, i + delta), Math.max(0, shown.length - 1)));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      run(selected);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
    }
  }

  return (
    <div className="overlay" role="presentation" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="palette" role="dialog" aria-modal="true" aria-label="Command palette" data-testid="command-palette">
        <input
          ref={inputRef}
          className="palette-input"
          data-testid="palette-input"
          placeholder="Go to a view, a setting or a note…"
          aria-label="Command"
          aria-controls="palette-list"
          aria-activedescendant={shown[selected] ? `palette-${selected}` : undefined}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setSelected(0);
          }}
          onKeyDown={onKeyDown}
        />
        <ul className="palette-list" id="palette-list" role="listbox">
          {shown.map((command, index) => (
            <li
              key={command.id}
              id={`palette-${index}`}
              role="option"
              aria-selected={index === selected}
              className="palette-item"
              data-testid="palette-item"
              data-command={command.id}
              onMouseEnter={() => setSelected(index)}
              onClick={() => run(index)}
            >
              <span className="palette-label">{command.label}</span>
              <span className="palette-detail">{command.detail}</span>
            </li>
          ))}
          {shown.length === 0 && <li className="palette-empty">Nothing matches “{text}”.</li>}
        </ul>
      </div>
    </div>
  );
}
