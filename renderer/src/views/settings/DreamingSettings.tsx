import type { FormEvent } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Field, describedBy as describedByIds } from '../../components/Field.js';
import type { DreamingNumberField } from '../../store/settingsSlice.js';
import { useReverie } from '../../store/useReverie.js';

/** The anchor the Dreams view's "Change in Settings" link lands on. */
export const DREAMING_SECTION_ID = 'settings-dreaming';

interface NumberFieldSpec {
  field: DreamingNumberField;
  label: string;
  unit?: string;
  /** Integers only (the engine refuses fractions for these). */
  integer: boolean;
  min: number;
  max?: number;
  help: string;
}

const GATES: NumberFieldSpec[] = [
  {
    field: 'minScore',
    label: 'Minimum score',
    integer: false,
    min: 0,
    max: 1,
    help: 'An entry’s weighted score (0–1) must reach this before it can be promoted.',
  },
  {
    field: 'minRecallCount',
    label: 'Minimum recalls',
    integer: true,
    min: 1,
    help: 'An entry must be recalled at least this many times before it can be promoted.',
  },
  {
    field: 'minUniqueQueries',
    label: 'Minimum distinct queries',
    integer: true,
    min: 1,
    help: 'An entry must be found by at least this many different searches before it can be promoted.',
  },
  {
    field: 'maxPromotions',
    label: 'Most promotions per run',
    integer: true,
    min: 0,
    help: 'At most this many entries are promoted in one sweep; the highest scores go first.',
  },
];

const BUDGETS: NumberFieldSpec[] = [
  {
    field: 'modelTimeoutSeconds',
    label: 'Model timeout',
    unit: 'seconds',
    integer: false,
    min: 0,
    help: 'How long one consolidation call to the chat model may take before the plain fallback writes instead.',
  },
  {
    field: 'memoryBudgetChars',
    label: 'MEMORY.md budget',
    unit: 'characters',
    integer: true,
    min: 1000,
    help: 'When MEMORY.md grows past this size, its oldest generated sections are compacted first.',
  },
];

const errorId = (field: string): string => `dreaming-field-error-${field}`;

/** A field's error props for Field: its message, the id controls point at, the test id. */
const errorOf = (field: string, errors: Record<string, string>) => ({ error: errors[field], errorId: errorId(field), errorTestId: errorId(field) });

const describedBy = (field: string, errors: Record<string, string>, help: string): string | undefined =>
  describedByIds(help, errors[field] && errorId(field));

const SHOWN_INLINE = new Set(['schedule', 'reviewBeforeWriting', ...GATES.map((g) => g.field), ...BUDGETS.map((b) => b.field)]);

/** The daily sweep, review before writing, the promotion gates and the budgets (`settings.dreaming`). */
export function DreamingSettings() {
  const settings = useReverie((s) => s.settings);
  const { draft, fieldErrors } = settings.dreaming;
  const section = settings.dreaming;
  const isDirty = settings.isDreamingDirty();
  const hasEdits = settings.hasDreamingEdits();
  const errorFields = Object.keys(fieldErrors);
  const allInline = errorFields.length > 0 && errorFields.every((field) => SHOWN_INLINE.has(field));

  function onSubmit(event: FormEvent): void {
    event.preventDefault();
    void settings.saveDreaming();
  }

  function numberField(spec: NumberFieldSpec) {
    if (!draft) return null;
    const id = `dreaming-${spec.field}`;
    const helpId = `${id}-help`;
    const input = (
      <input
        id={id}
        className="text-input number-input"
        data-testid={id}
        type="number"
        inputMode={spec.integer ? 'numeric' : 'decimal'}
        min={spec.min}
        max={spec.max}
        step={spec.integer ? 1 : 'any'}
        value={draft[spec.field]}
        aria-describedby={describedBy(spec.field, fieldErrors, helpId)}
        aria-invalid={fieldErrors[spec.field] ? true : undefined}
        onChange={(event) => settings.setDreamingNumber(spec.field, event.target.value)}
      />
    );
    return (
      <Field key={spec.field} label={spec.label} controlId={id} help={spec.help} helpId={helpId} {...errorOf(spec.field, fieldErrors)}>
        {spec.unit ? (
          <span className="input-with-unit">
            {input}
            <span className="muted">{spec.unit}</span>
          </span>
        ) : (
          input
        )}
      </Field>
    );
  }

  return (
    <section
      className="card settings-section dreaming-settings"
      id={DREAMING_SECTION_ID}
      aria-labelledby="settings-dreaming-heading"
      data-testid="settings-dreaming"
    >
      <h2 id="settings-dreaming-heading">Dreaming</h2>
      {section.state === 'error' && (
        <ErrorNotice title="Could not load the dreaming settings" error={section.loadError} testId="dreaming-load-error" onRetry={() => void settings.load()} />
      )}
      {!draft && section.state !== 'error' && <p className="muted">Loading…</p>}
      {draft && (
        <form className="settings-form" onSubmit={onSubmit} noValidate data-testid="dreaming-form">
          <Field
            label="Daily sweep"
            labelId="dreaming-schedule-label"
            helpId="dreaming-schedule-help"
            help="Local time of the nightly sweep that promotes often-recalled entries into MEMORY.md. Off: dreams only run when you start one."
            {...errorOf('schedule', fieldErrors)}
          >
            <span className="dreaming-schedule-row">
              <label className="checkbox">
                <input
                  type="checkbox"
                  data-testid="dreaming-schedule-enabled"
                  checked={draft.scheduleEnabled}
                  onChange={(event) => settings.setDreamingSchedule(event.target.checked)}
                />
                Dream every day at
              </label>
              <input
                id="dreaming-schedule-time"
                className="text-input time-input"
                data-testid="dreaming-schedule-time"
                type="time"
                step={60}
                aria-labelledby="dreaming-schedule-label"
                disabled={!draft.scheduleEnabled}
                value={draft.scheduleTime}
                aria-describedby={describedBy('schedule', fieldErrors, 'dreaming-schedule-help')}
                aria-invalid={fieldErrors.schedule ? true : undefined}
                onChange={(event) => settings.setDreamingSchedule(true, event.target.value)}
              />
            </span>
          </Field>

          <Field
            label="Review"
            helpId="dreaming-review-help"
            help="Promotions wait in the Dreams view as proposals until you approve them, instead of being written at once."
            {...errorOf('reviewBeforeWriting', fieldErrors)}
          >
            <label className="checkbox">
              <input
                type="checkbox"
                data-testid="dreaming-review"
                checked={draft.reviewBeforeWriting}
                aria-describedby={describedBy('reviewBeforeWriting', fieldErrors, 'dreaming-review-help')}
                onChange={(event) => settings.setDreamingReview(event.target.checked)}
              />
              Review promotions before writing them
            </label>
          </Field>

          <h3 className="settings-form-subheading">Gates</h3>
          {GATES.map(numberField)}
          <h3 className="settings-form-subheading">Budgets</h3>
          {BUDGETS.map(numberField)}

          {section.saveError && (
            <ErrorNotice
              title="Dreaming settings were not saved"
              error={allInline ? 'fix the fields marked above.' : section.saveError}
              testId="dreaming-save-error"
            />
          )}
          <div className="form-actions">
            <button type="submit" className="button button-primary" data-testid="dreaming-save" disabled={!isDirty || section.isSaving}>
              {section.isSaving ? 'Saving…' : 'Save'}
            </button>
            <button
              type="button"
              className="button"
              data-testid="dreaming-revert"
              disabled={!hasEdits || section.isSaving}
              onClick={() => settings.revertDreaming()}
            >
              Revert
            </button>
            {section.savedAt && !isDirty && (
              <span className="saved-label" data-testid="dreaming-saved" role="status">
                Saved at {section.savedAt}
              </span>
            )}
            {isDirty && !section.isSaving && <span className="unsaved-label">Unsaved changes</span>}
          </div>
        </form>
      )}
    </section>
  );
}
