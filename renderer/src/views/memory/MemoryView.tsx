import { useReverie } from '../../store/useReverie.js';
import { DocumentPane } from './DocumentPane.js';
import { FileTree } from './FileTree.js';
import './memory.css';

export function MemoryView() {
  const requestNewNote = useReverie((s) => s.notes.requestNewNote);
  const openDailyNote = useReverie((s) => s.notes.openDailyNote);
  const isBusy = useReverie((s) => s.notes.isBusy);
  return (
    <section className="view memory-view" aria-label="Memory">
      <aside className="tree-pane" aria-label="Files">
        <h1 className="pane-title">Memory files</h1>
        <div className="tree-actions">
          <button type="button" className="button" data-testid="new-note" onClick={() => requestNewNote()} disabled={isBusy}>
            New note
          </button>
          <button type="button" className="button" data-testid="daily-note" onClick={() => void openDailyNote()} disabled={isBusy} title="Open today's memory/YYYY-MM-DD.md, creating it when missing">
            Today
          </button>
        </div>
        <FileTree />
      </aside>
      <div className="doc-pane">
        <DocumentPane />
      </div>
    </section>
  );
}
