import { DreamingSettings } from './DreamingSettings.js';
import { GraphSettings } from './GraphSettings.js';
import { ModelsSettings } from './ModelsSettings.js';
import { SearchSettings } from './SearchSettings.js';
import './settings.css';

/** Search options, dreaming, the knowledge graph and the models. Each section loads and fails on its own. */
export function SettingsView() {
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
