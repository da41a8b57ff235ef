import type { View } from '../../store/appSlice.js';
import { useReverie } from '../../store/useReverie.js';

const ITEMS: Array<{ view: View; label: string; hint: string }> = [
  { view: 'search', label: 'Search', hint: 'Find anything you wrote' },
  { view: 'memory', label: 'Memory', hint: 'Browse and edit your notes' },
  { view: 'imports', label: 'Imports', hint: 'Bring in memory from Codex, Claude Code and Hermes' },
  { view: 'dreams', label: 'Dreams', hint: 'The dream diary, dreaming runs and what they promoted' },
  { view: 'graph', label: 'Graph', hint: 'The people, projects, machines and ideas in your memory and how they connect' },
  { view: 'agents', label: 'Agents', hint: 'Local agents: tokens, setup, the access log' },
  { view: 'status', label: 'Status', hint: 'Index health and coverage' },
  { view: 'settings', label: 'Settings', hint: 'Search options and embedding models' },
];

export function NavBar() {
  const current = useReverie((s) => s.app.view);
  const setView = useReverie((s) => s.app.setView);
  const hasUnsavedEdits = useReverie((s) => s.memory.isEditing && s.memory.hasUnsavedEdits);
  return (
    <nav className="nav" aria-label="Views">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true" />
        Reverie
      </div>
      <ul className="nav-list">
        {ITEMS.map((item) => (
          <li key={item.view}>
            <button
              type="button"
              className="nav-item"
              data-testid={`nav-${item.view}`}
              aria-current={current === item.view ? 'page' : undefined}
              title={item.hint}
              onClick={() => setView(item.view)}
            >
              {item.label}
              {item.view === 'memory' && hasUnsavedEdits && (
                <span className="unsaved-dot" data-testid="nav-unsaved" title="Unsaved edits">
                  <span className="visually-hidden">(unsaved edits)</span>
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
