import { DreamingSettings } from './DreamingSettings.js';
import { ModelsSettings } from './ModelsSettings.js';
import { SearchSettings } from './SearchSettings.js';

/** Search options, dreaming and the embedding models. Each section loads and fails on its own. */
export function SettingsView() {
  return (
    <section className="view settings-view" aria-labelledby="settings-heading" data-testid="settings-view">
      <header className="view-header">
        <h1 id="settings-heading">Settings</h1>
      </header>
      <SearchSettings />
      <DreamingSettings />
      <ModelsSettings />
    </section>
  );
}
