import { useEffect } from 'react';
import { useReverie } from '../../store/useReverie.js';
import { DreamingSettings } from './DreamingSettings.js';
import { GraphSettings } from './GraphSettings.js';
import { ModelsSettings } from './ModelsSettings.js';
import { SearchSettings } from './SearchSettings.js';
import './settings.css';

/** Search options, dreaming, the knowledge graph and the models. Each section loads and fails on its own. */
const SECTION_TEST_IDS = { search: 'settings-search', dreaming: 'settings-dreaming', graph: 'settings-graph', models: 'settings-models' } as const;

export function SettingsView() {
  const section = useReverie((s) => s.app.settingsSection);
  useEffect(() => {
    if (!section) return;
    // Scroll only the main pane (never the page): scrollIntoView on a nested card can shift the whole window.
    const card = document.querySelector<HTMLElement>(`[data-testid=${SECTION_TEST_IDS[section]}]`);
    const main = document.getElementById('main');
    if (card && main) main.scrollTop += card.getBoundingClientRect().top - main.getBoundingClientRect().top - 12;
  }, [section]);
  return (
    <section className="view settings-view" aria-labelledby="settings-heading" data-testid="settings-view">
      <header className="view-header">
        <h1 id="settings-heading">Settings</h1>
      </header>
      <SearchSettings />
      <DreamingSettings />
      <GraphSettings />
      <ModelsSettings />
    </section>
  );
}
