import type { FormEvent } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Field, describedBy } from '../../components/Field.js';
import { FieldError } from '../../components/FieldError.js';
import type { FusionMode } from '../../store/settingsSlice.js';
import { useReverie } from '../../store/useReverie.js';

const FUSION_OPTIONS: Array<{ value: FusionMode; label: string }> = [
  { value: 'weighted', label: 'Weighted sum' },
  { value: 'rrf', label: 'Reciprocal-rank fusion (RRF)' },
];

const errorId = (field: string): string => `field-error-${field.replace(/\./g, '-')}`;
const errorTestId = (field: string): string => `field-error-${field}`;

/** A field's error props for Field: its message, the id controls point at, the test id. */
const errorOf = (field: string, errors: Record<string, string>) => ({ error: errors[field], errorId: errorId(field), errorTestId: errorTestId(field) });
const describe = (field: string, errors: Record<string, string>, help?: string): string | undefined =>
  describedBy(help, errors[field] && errorId(field));

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
        <ErrorNotice title="Could not load settings" error={settings.loadError} testId="settings-load-error" onRetry={() => void settings.load()} />
      )}
      {!draft && settings.state !== 'error' && <p className="muted">Loading…</p>}
      {draft && (
        <form className="settings-form" onSubmit={onSubmit} noValidate data-testid="settings-form">
          <Field
            label="Fusion"
            controlId="fusion-select"
            helpId="fusion-help"
            help="How keyword and vector candidates are combined: a weighted sum of their scores, or RRF, which uses only each result’s rank in the two lists."
            {...errorOf('fusion', fieldErrors)}
          >
            <select
              id="fusion-select"
              className="select"
              data-testid="fusion-select"
              value={draft.fusion}
              aria-describedby={describe('fusion', fieldErrors, 'fusion-help')}
              aria-invalid={fieldErrors.fusion ? true : undefined}
              onChange={(event) => settings.setFusion(event.target.value as FusionMode)}
            >
              {FUSION_OPTIONS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </Field>

          <Field
            label="Largest file"
            controlId="max-file-size"
            helpId="max-file-size-help"
            help="Larger files are skipped as “too large”."
            {...errorOf('maxFileSizeMB', fieldErrors)}
          >
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
                aria-describedby={describe('maxFileSizeMB', fieldErrors, 'max-file-size-help')}
                aria-invalid={fieldErrors.maxFileSizeMB ? true : undefined}
                onChange={(event) => settings.setMaxFileSizeMB(event.target.value)}
              />
              <span className="muted">MB</span>
            </span>
          </Field>

          <Field label="Watch" {...errorOf('watch', fieldErrors)}>
            <label className="checkbox">
              <input type="checkbox" data-testid="watch-checkbox" checked={draft.watch} onChange={(event) => settings.setWatch(event.target.checked)} />
              Re-index when files change while Reverie runs
            </label>
          </Field>

          <Field
            label="Extra paths"
            labelId="extra-paths-label"
            help="Folders or .md files indexed as memory, absolute or relative to the workspace. Empty rows are ignored."
            {...errorOf('extraPaths', fieldErrors)}
          >
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
                    aria-describedby={describe(`extraPaths.${index}`, fieldErrors)}
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
                  <FieldError message={fieldErrors[`extraPaths.${index}`]} id={errorId(`extraPaths.${index}`)} testId={errorTestId(`extraPaths.${index}`)} />
                </li>
              ))}
            </ul>
            <button type="button" className="button" data-testid="add-extra-path" onClick={() => settings.addExtraPath()}>
              Add path
            </button>
          </Field>

          {settings.saveError && (
            <ErrorNotice
              title="Settings were not saved"
              error={allShownInline(fieldErrors, draft.extraPaths.length) ? 'fix the fields marked above.' : settings.saveError}
              testId="settings-save-error"
            />
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
