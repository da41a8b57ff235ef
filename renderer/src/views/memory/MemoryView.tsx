import { DocumentPane } from './DocumentPane.js';
import { FileTree } from './FileTree.js';
import './memory.css';

export function MemoryView() {
  return (
    <section className="view memory-view" aria-label="Memory">
      <aside className="tree-pane" aria-label="Files">
        <h1 className="pane-title">Memory files</h1>
        <FileTree />
      </aside>
      <div className="doc-pane">
        <DocumentPane />
      </div>
    </section>
  );
}
