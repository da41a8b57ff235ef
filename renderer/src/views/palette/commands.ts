import type { ReverieState } from '../../store/types.js';
import { VIEWS, type View } from '../../store/appSlice.js';
import { SETTINGS_SECTIONS } from '../../routing/route.js';

/** One entry of the command palette (Ctrl/Cmd+K). */
export interface PaletteCommand {
  id: string;
  label: string;
  /** Grey text after the label: a file's folder, a view's purpose. */
  detail: string;
  run(state: ReverieState): void;
}

/** The keys the window answers to, as the "?" sheet lists them. */
export const SHORTCUTS: ReadonlyArray<{ keys: string; action: string }> = [
  { keys: 'Ctrl/⌘ K', action: 'Open the command palette: views, notes, files' },
  { keys: '/', action: 'Go to Search and type a query' },
  { keys: '?', action: 'Show these shortcuts' },
  { keys: '↑ ↓ Enter', action: 'Move through search results and open one' },
  { keys: 'Ctrl/⌘ S', action: 'Save the note being edited' },
  { keys: 'Esc', action: 'Close the palette, this sheet or the inspector' },
  { keys: 'Alt ← / Alt →', action: 'Back and Forward through what you opened' },
];

const VIEW_LABELS: Record<View, string> = {
  search: 'Search',
  memory: 'Memory',
  imports: 'Imports',
  dreams: 'Dreams',
  graph: 'Graph',
  agents: 'Agents',
  status: 'Status',
  settings: 'Settings',
};

const SECTION_LABELS: Record<(typeof SETTINGS_SECTIONS)[number], string> = {
  search: 'Search options',
  dreaming: 'Dreaming',
  graph: 'Knowledge graph',
  models: 'Models',
};

/** Everything the palette offers now: note actions, views, settings sections, then every memory file. */
export function paletteCommands(state: ReverieState): PaletteCommand[] {
  const commands: PaletteCommand[] = [
    { id: 'focus-search', label: 'Search memory', detail: '/', run: (s) => s.app.focusSearch() },
    { id: 'note:new', label: 'New note…', detail: 'note', run: (s) => s.notes.requestNewNote() },
    { id: 'note:daily', label: "Open today's daily note", detail: 'note', run: (s) => void s.notes.openDailyNote() },
    ...VIEWS.map((view) => ({ id: `view:${view}`, label: `Go to ${VIEW_LABELS[view]}`, detail: 'view', run: (s: ReverieState) => s.app.setView(view) })),
    ...SETTINGS_SECTIONS.map((section) => ({
      id: `settings:${section}`,
      label: `Settings: ${SECTION_LABELS[section]}`,
      detail: 'settings',
      run: (s: ReverieState) => s.app.showSettingsSection(section),
    })),
  ];
  for (const file of state.memory.files) {
    const slash = file.path.lastIndexOf('/');
    commands.push({
      id: `file:${file.path}`,
      label: file.path.slice(slash + 1),
      detail: slash > 0 ? file.path.slice(0, slash) : 'workspace',
      run: (s) => {
        s.app.setView('memory');
        void s.memory.openFile(file.path);
      },
    });
  }
  return commands;
}

/**
 * The commands whose label (or folder) contains every typed word, best first: label starts
 * with the text, then a word of the label does, then anywhere. At most `limit`.
 */
export function filterCommands(commands: readonly PaletteCommand[], text: string, limit = 50): PaletteCommand[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return commands.slice(0, limit);
  const first = words[0]!;
  const scored: Array<{ command: PaletteCommand; rank: number; order: number }> = [];
  commands.forEach((command, order) => {
    const label = command.label.toLowerCase();
    const haystack = `${label} ${command.detail.toLowerCase()}`;
    if (!words.every((w) => haystack.includes(w))) return;
    const rank = label.startsWith(first) ? 0 : new RegExp(`\\b${escapeRegExp(first)}`).test(label) ? 1 : 2;
    scored.push({ command, rank, order });
  });
  scored.sort((a, b) => a.rank - b.rank || a.order - b.order);
  return scored.slice(0, limit).map((s) => s.command);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
