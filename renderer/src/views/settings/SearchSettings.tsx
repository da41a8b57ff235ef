import type { FormEvent } from 'react';
import type { FusionMode } from '../../store/settingsSlice.js';
import { useReverie } from '../../store/useReverie.js';

const FUSION_OPTIONS: Array<{ value: FusionMode; label: string }> = [
  { value: 'weighted', label: 'Weighted sum' },
  { value: 'rrf', label: 'Reciprocal-rank fusion (RRF)' },
];

function FieldError({ field, errors }: { field: string; errors: Record<string, string> }) {
  const message = errors[field];
  if (!message) return null;
  return (
    <p className="field-error" id={`field-error-${field.replace(/\./g, '-')}`} data-testid={`field-error-${field}`} role="alert">
      {message}
    </p>
  );
}

const describedBy = (field: string, errors: Record<string, string>, help?: string): string | undefined =>
  [help, errors[field] ? `field-error-${field.replace(/\./g, '-')}` : undefined].filter(Boolean).join(' ') || undefined;

/** True when every field error has a field on screen to show it (otherwise the banner shows the whole message). */
function allShownInline(errors: Record<string, string>, extraPathRows: number): boolean {
  const fields = Object.keys(errors);
  return (
    fields.length > 0 &&
    fields.every((field) => {
      if (['fusion', 'maxFileSizeMB', 'watch', 'extraPaths'].includes(field)) return true;
      const row = /^extraPaths\.(\d+)$/.exec(field);
      return row !== null && Number(row[1]) < extraPathRows;
    })
  );
}

export function SearchSettings() {
  const settings = useReverie((s) => s.settings);
  const { draft, fieldErrors } = settings;
  const isDirty = settings.isDirty();
  const hasEdits = settings.hasEdits();

  function onSubmit(event: FormEvent): void {
    event.preventDefault();
    void settings.save();
  }

  return (
    <section className="card settings-section" aria-labelledby="settings-search-heading" data-testid="settings-search">
      <h2 id="settings-search-heading">Search</h2>
      {settings.state === 'error' && (
        <div className="banner banner-error" role="alert" data-testid="settings-load-error">
          <span>Could not load settings: {settings.loadError}</span>
          <button type="button" className="button" onClick={() => void settings.load()}>
            Try again
          </button>
        </div>
      )}
      {!draft && settings.state !== 'error' && <p className="muted">Loading…</p>}
      {draft && (
        <form className="settings-form" onSubmit={onSubmit} noValidate data-testid="settings-form">
          <div className="field">
            <label htmlFor="fusion-select" className="field-label">
              Fusion
            </label>
            <div className="field-body">
              <select
                id="fusion-select"
                className="select"
                data-testid="fusion-select"
                value={draft.fusion}
                aria-describedby={describedBy('fusion', fieldErrors, 'fusion-help')}
                aria-invalid={fieldErrors.fusion ? true : undefined}
                onChange={(event) => settings.setFusion(event.target.value as FusionMode)}
              >
                {FUSION_OPTIONS.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
              <p className="field-help" id="fusion-help">
                How keyword and vector candidates are combined: a weighted sum of their scores, or RRF, which uses only each result’s
                rank in the two lists.
              </p>
              <FieldError field="fusion" errors={fieldErrors} />
            </div>
          </div>

          <div className="field">
            <label htmlFor="max-file-size" className="field-label">
              Largest file
            </label>
            <div className="field-body">
              <span className="input-with-unit">
                <input
                  id="max-file-size"
                  className="text-input number-input"
                  data-testid="max-file-size"
                  type="number"
                  inputMode="decimal"
                  min={0}
                  step="any"
                  value={draft.maxFileSizeMB}
                  aria-describedby={describedBy('maxFileSizeMB', fieldErrors, 'max-file-size-help')}
                  aria-invalid={fieldErrors.maxFileSizeMB ? true : undefined}
                  onChange={(event) => settings.setMaxFileSizeMB(event.target.value)}
                />
                <span className="muted">MB</span>
              </span>
              <p className="field-help" id="max-file-size-help">
                Larger files are skipped as “too large”.
              </p>
              <FieldError field="maxFileSizeMB" errors={fieldErrors} />
            </div>
          </div>

          <div className="field">
            <span className="field-label">Watch</span>
            <div className="field-body">
              <label className="checkbox">
                <input
                  type="checkbox"
                  data-testid="watch-checkbox"
                  checked={draft.watch}
                  onChange={(event) => settings.setWatch(event.target.checked)}
                />
                Re-index when files change while Reverie runs
              </label>
              <FieldError field="watch" errors={fieldErrors} />
            </div>
          </div>

          <div className="field">
            <span className="field-label" id="extra-paths-label">
              Extra paths
            </span>
            <div className="field-body">
              <ul className="path-list" aria-labelledby="extra-paths-label" data-testid="extra-paths">
                {draft.extraPaths.map((value, index) => (
                  <li key={index} className="path-row" data-testid="extra-path-row">
                    <input
                      className="text-input path-input"
                      data-testid="extra-path-input"
                      type="text"
                      spellCheck={false}
                      placeholder="/absolute/folder or relative/notes.md"
                      aria-label={`Extra path ${index + 1}`}
                      aria-describedby={describedBy(`extraPaths.${index}`, fieldErrors)}
                      aria-invalid={fieldErrors[`extraPaths.${index}`] ? true : undefined}
                      value={value}
                      onChange={(event) => settings.setExtraPath(index, event.target.value)}
                    />
                    <button
                      type="button"
                      className="button"
                      data-testid="remove-extra-path"
                      aria-label={`Remove extra path ${index + 1}`}
                      onClick={() => settings.removeExtraPath(index)}
                    >
                      Remove
                    </button>
                    <FieldError field={`extraPaths.${index}`} errors={fieldErrors} />
                  </li>
                ))}
              </ul>
              <button type="button" className="button" data-testid="add-extra-path" onClick={() => settings.addExtraPath()}>
                Add path
              </button>
              <p className="field-help">Folders or .md files indexed as memory, absolute or relative to the workspace. Empty rows are ignored.</p>
              <FieldError field="extraPaths" errors={fieldErrors} />
            </div>
          </div>

          {settings.saveError && (
            <div className="banner banner-error" role="alert" data-testid="settings-save-error">
              {allShownInline(fieldErrors, draft.extraPaths.length)
                ? 'Settings were not saved: fix the fields marked above.'
                : `Settings were not saved: ${settings.saveError}`}
            </div>
          )}
          <div className="form-actions">
            <button type="submit" className="button button-primary" data-testid="settings-save" disabled={!isDirty || settings.isSaving}>
              {settings.isSaving ? 'Saving…' : 'Save'}
            </button>
            <button type="button" className="button" data-testid="settings-revert" disabled={!hasEdits || settings.isSaving} onClick={() => settings.revert()}>
              Revert
            </button>
            {settings.savedAt && !isDirty && (
              <span className="saved-label" data-testid="settings-saved" role="status">
                Saved at {settings.savedAt}
              </span>
            )}
            {isDirty && !settings.isSaving && <span className="unsaved-label">Unsaved changes</span>}
          </div>
        </form>
      )}
    </section>
  );
}
