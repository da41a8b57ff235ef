import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Badge } from '../src/components/Badge.js';
import { EmptyState } from '../src/components/EmptyState.js';
import { ErrorNotice } from '../src/components/ErrorNotice.js';
import { readableError, SUMMARY_LIMIT } from '../src/components/errorText.js';
import { Field, describedBy } from '../src/components/Field.js';

const html = (element: ReturnType<typeof createElement>): string => renderToStaticMarkup(element);
const input = createElement('input', { id: 'size' });

describe('Field', () => {
  it('labels its control, then shows the help and the error under it', () => {
    const markup = html(
      createElement(Field, { label: 'Largest file', controlId: 'size', help: 'Larger files are skipped.', helpId: 'size-help', error: 'Too big', errorId: 'size-error', errorTestId: 'size-error' }, input),
    );
    expect(markup).toBe(
      '<div class="field"><label for="size" class="field-label">Largest file</label><div class="field-body"><input id="size"/>' +
        '<p class="field-help" id="size-help">Larger files are skipped.</p>' +
        '<p class="field-error" id="size-error" data-testid="size-error" role="alert">Too big</p></div></div>',
    );
  });

  it('labels a group of controls with text (for aria-labelledby), and shows no error when there is none', () => {
    const markup = html(createElement(Field, { label: 'Extra paths', labelId: 'paths-label', error: null }, createElement('ul')));
    expect(markup).toBe('<div class="field"><span class="field-label" id="paths-label">Extra paths</span><div class="field-body"><ul></ul></div></div>');
  });

  it('builds aria-describedby from the ids that are there', () => {
    expect(describedBy('help', 'error')).toBe('help error');
    expect(describedBy('help', false, undefined)).toBe('help');
    expect(describedBy(undefined, null)).toBeUndefined();
  });
});

describe('ErrorNotice', () => {
  it('says what failed and why, with a retry button', () => {
    const markup = html(createElement(ErrorNotice, { title: 'Could not list models', error: 'Cannot reach Reverie.', testId: 'models-error', onRetry: () => undefined, retryTestId: 'retry' }));
    expect(markup).toBe(
      '<div class="error-notice banner banner-error" role="alert" data-testid="models-error"><div class="error-notice-body">' +
        '<span class="error-notice-message">Could not list models: Cannot reach Reverie.</span></div>' +
        '<span class="error-notice-actions"><button type="button" class="button button-small" data-testid="retry">Try again</button></span></div>',
    );
  });

  it('turns a validation message into "field: problem", with the raw text behind Details', () => {
    const raw = 'settings.set: field "patch.maxFileSizeMB": Too big: expected number to be <=1024; settings.set: field "patch.extraPaths.0": Required';
    const markup = html(createElement(ErrorNotice, { title: 'Settings were not saved', error: raw }));
    expect(markup).toContain('Settings were not saved: maxFileSizeMB: Too big: expected number to be &lt;=1024; extraPaths.0: Required</span>');
    expect(markup).toContain('<details class="error-notice-details"><summary>Details</summary><pre>settings.set: field &quot;patch.maxFileSizeMB&quot;');
  });

  it('never shows a JSON dump or a stack in the message', () => {
    const dump = `The engine's answer to status does not match the contract: [\n  {\n    "code": "invalid_type",\n    "path": ["index"]\n  }\n]`;
    expect(readableError(dump)).toEqual({ summary: "The engine's answer to status does not match the contract", details: dump });
    const stack = 'TypeError: x is undefined\n    at run (engine.js:10:3)';
    expect(readableError(stack)).toEqual({ summary: 'TypeError: x is undefined', details: stack });
    expect(readableError('[\n1]').summary).toBe('No readable message came with the error.');
  });

  it('shortens a long message at a word and keeps the whole text', () => {
    const long = `${'word '.repeat(80)}end`;
    const { summary, details } = readableError(long);
    expect(summary.length).toBeLessThanOrEqual(SUMMARY_LIMIT + 1);
    expect(summary).toMatch(/word…$/);
    expect(details).toBe(long);
    expect(readableError('Short and clear.')).toEqual({ summary: 'Short and clear.', details: null });
  });

  it('puts a sentence-long title above the error, adds a hint after a full stop, and has an inline variant', () => {
    const below = html(createElement(ErrorNotice, { title: 'Not found.', error: 'No chunk 7.', errorPlacement: 'below', code: 'not-found', testId: 't' }));
    expect(below).toContain('data-testid="t" data-code="not-found"');
    expect(below).toContain('<span class="error-notice-message">Not found.</span><div class="error-notice-text">No chunk 7.</div>');
    const hint = html(createElement(ErrorNotice, { title: 'Embedding failed', error: 'model missing', hint: 'Keyword search keeps working.' }));
    expect(hint).toContain('Embedding failed: model missing. Keyword search keeps working.</span>');
    const inline = html(createElement(ErrorNotice, { variant: 'inline', error: 'busy' }));
    expect(inline).toBe('<div class="error-notice error-notice-inline" role="alert"><div class="error-notice-body"><span class="error-notice-message">busy</span></div></div>');
  });
});

describe('Badge and EmptyState', () => {
  it('gives each tone its class and keeps attributes in order', () => {
    expect(html(createElement(Badge, { tone: 'error', testId: 'state', 'data-status': 'failed' }, 'failed'))).toBe(
      '<span class="badge badge-failed" data-testid="state" data-status="failed">failed</span>',
    );
    expect(html(createElement(Badge, { tone: 'ok' }, 'ok'))).toBe('<span class="badge badge-indexed">ok</span>');
    expect(html(createElement(Badge, { tone: 'warn' }, 'w'))).toContain('badge-skipped');
    expect(html(createElement(Badge, { tone: 'info' }, 'i'))).toContain('badge-memory');
    expect(html(createElement(Badge, { className: 'badge-dreams' }, 'dry run'))).toBe('<span class="badge badge-dreams">dry run</span>');
  });

  it('shows a title, a sentence and an action', () => {
    const markup = html(createElement(EmptyState, { title: 'No runs', centered: true, action: createElement('button', null, 'Dream now') }, 'Dream now, or wait.'));
    expect(markup).toBe(
      '<div class="empty-state empty-state-centered"><p class="empty-state-title">No runs</p><p class="empty-state-text">Dream now, or wait.</p>' +
        '<div class="empty-state-action"><button>Dream now</button></div></div>',
    );
  });
});
