import { useEffect, useState } from 'react';
import { useReverieStore } from '../../store/useReverie.js';
import { CommandPalette } from './CommandPalette.js';
import { ShortcutsSheet } from './ShortcutsSheet.js';
import './palette.css';

type Overlay = 'palette' | 'shortcuts' | null;

/** Whether a key press is typing into a field (then "/" and "?" are just characters). */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT';
}

/** The window-wide keys: Ctrl/Cmd+K (palette), Ctrl/Cmd+S (save), "/" (search), "?" (shortcuts), Esc. */
export function KeyboardLayer() {
  const store = useReverieStore();
  const [overlay, setOverlay] = useState<Overlay>(null);

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent): void {
      const isMod = event.ctrlKey || event.metaKey;
      if (isMod && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setOverlay((o) => (o === 'palette' ? null : 'palette'));
        return;
      }
      if (isMod && !event.altKey && event.key.toLowerCase() === 's') {
        // Never the browser's "Save page as…": save the note being edited, if any.
        event.preventDefault();
        const { memory } = store.getState();
        if (memory.isEditing) void memory.save();
        return;
      }
      // composedPath: inside a shadow root (the note editor) event.target is only the host element.
      if (isMod || event.altKey || isTyping(event.composedPath()[0] ?? event.target)) return;
      if (event.key === '/') {
        event.preventDefault();
        setOverlay(null);
        store.getState().app.focusSearch();
      } else if (event.key === '?') {
        event.preventDefault();
        setOverlay('shortcuts');
      } else if (event.key === 'Escape') {
        setOverlay(null);
      }
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [store]);

  if (overlay === 'palette') return <CommandPalette onClose={() => setOverlay(null)} />;
  if (overlay === 'shortcuts') return <ShortcutsSheet onClose={() => setOverlay(null)} />;
  return null;
}
