import { lazy, Suspense, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Badge } from '../../components/Badge.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { LARGE_NOTE_BYTES } from '../../store/memorySlice.js';
import { useReverie } from '../../store/useReverie.js';
import { COVERAGE_TONE } from '../coverage.js';
import { formatBytes } from '../format.js';
import { lineRef } from '../provenance/origin.js';
import { Backlinks } from './Backlinks.js';
import { ConflictPanel } from './ConflictPanel.js';
import { SourceView } from './SourceView.js';

// Markdown rendering (react-markdown, remark, micromark) is most of the bundle: load it on first use
// so the app, and the first search, start sooner.
const RenderedView = lazy(() => import('./RenderedView.js').then((m) => ({ default: m.RenderedView })));
// The CodeMirror editor likewise: only people who edit load it.
const Editor = lazy(() => import('./Editor.js').then((m) => ({ default: m.Editor })));

export function DocumentPane() {
  // Everything but the draft's revision: typing must not redraw the pane around the editor.
  const memory = useReverie(
    useShallow(({ memory: m }) => ({
      openPath: m.openPath,
      doc: m.doc,
      docState: m.docState,
      docError: m.docError,
      readMode: m.readMode,
      isEditing: m.isEditing,
      highlight: m.highlight,
      highlightRequest: m.highlightRequest,
      highlightQuery: m.highlightQuery,
      hasUnsavedEdits: m.hasUnsavedEdits,
      isSaving: m.isSaving,
      saveError: m.saveError,
      conflict: m.conflict,
      savedAt: m.savedAt,
      hasDiskChanged: m.hasDiskChanged,
      linkRefusal: m.linkRefusal,
      setReadMode: m.setReadMode,
      startEditing: m.startEditing,
      cancelEditing: m.cancelEditing,
      save: m.save,
      clearHighlight: m.clearHighlight,
      refuseLink: m.refuseLink,
    })),
  );
  const coverage = useReverie((s) => s.memory.files.find((f) => f.path === s.memory.openPath));
  const openProvenance = useReverie((s) => s.provenance.open);
  const requestRename = useReverie((s) => s.notes.requestRename);
  const deleteNote = useReverie((s) => s.notes.deleteNote);
  const isNoteBusy = useReverie((s) => s.notes.isBusy);
  const { openPath, doc, docState, isEditing, highlight } = memory;
  const lineCount = useMemo(() => (doc ? countLines(doc.text) : 0), [doc]);

  if (!openPath) {
    return (
      <EmptyState centered className="doc-empty" testId="doc-empty">
        Choose a file on the left, or open one from Search.
      </EmptyState>
    );
  }

  const isDirty = isEditing && memory.hasUnsavedEdits;
  const isLarge = doc !== null && doc.size > LARGE_NOTE_BYTES;
  // The inspector takes at most 200 lines: the highlighted hit, or the top of the file.
  const whereFromRef = doc
    ? highlight
      ? lineRef(doc.path, highlight.startLine, highlight.endLine)
      : lineRef(doc.path, 1, Math.max(1, Math.min(lineCount, 200)))
    : null;
  return (
    <article className="doc" data-testid="document" data-path={openPath} aria-labelledby="doc-title">
      <header className="doc-header">
        <div className="doc-heading">
          <h2 id="doc-title" className="doc-title" data-testid="doc-path">
            {openPath}
          </h2>
          <div className="doc-meta">
            {coverage && <Badge tone={COVERAGE_TONE[coverage.status]}>{coverage.status}</Badge>}
            {doc && <span>{formatBytes(doc.size)}</span>}
            {isDirty && <span className="unsaved-label">Unsaved changes</span>}
            {memory.savedAt && !isDirty && (
              <span className="saved-label" data-testid="saved-notice" role="status">
                Saved at {memory.savedAt}
              </span>
            )}
          </div>
        </div>
        <div className="doc-actions">
          {doc && openPath?.startsWith('memory/') && (
            <>
              <button type="button" className="button" data-testid="rename-button" onClick={() => requestRename(doc.path)} disabled={isNoteBusy}>
                Rename…
              </button>
              <button type="button" className="button button-danger" data-testid="delete-button" onClick={() => void deleteNote(doc.path)} disabled={isNoteBusy}>
                Delete
              </button>
            </>
          )}
          {!isEditing && doc && !isLarge && (
            <>
              <div className="segmented" role="group" aria-label="Show as">
                <button
                  type="button"
                  className="segment"
                  data-testid="mode-rendered"
                  aria-pressed={memory.readMode === 'rendered'}
                  onClick={() => memory.setReadMode('rendered')}
                >
                  Rendered
                </button>
                <button
                  type="button"
                  className="segment"
                  data-testid="mode-source"
                  aria-pressed={memory.readMode === 'source'}
                  onClick={() => memory.setReadMode('source')}
                >
                  Source
                </button>
              </div>
              <button
                type="button"
                className="button"
                data-testid="doc-where-from"
                title={
                  highlight
                    ? 'Where are the highlighted lines from? (In Source view, click any line number for one line.)'
                    : 'Who wrote this file, and stop indexing it. (In Source view, click any line number for one line.)'
                }
                onClick={() => whereFromRef && void openProvenance(whereFromRef)}
              >
                Where from?
              </button>
              <button type="button" className="button button-primary" data-testid="edit-button" onClick={memory.startEditing}>
                Edit
              </button>
            </>
          )}
          {isEditing && (
            <>
              <button type="button" className="button" data-testid="cancel-button" onClick={memory.cancelEditing} disabled={memory.isSaving}>
                Cancel
              </button>
              <button
                type="button"
                className="button button-primary"
                data-testid="save-button"
                onClick={() => void memory.save()}
                disabled={memory.isSaving}
                title="Save (Ctrl+S)"
              >
                {memory.isSaving ? 'Saving…' : 'Save'}
              </button>
            </>
          )}
        </div>
      </header>

      {isLarge && (
        <div className="banner banner-warn" role="status" data-testid="large-note-notice">
          This note is {formatBytes(doc.size)}, too large to edit here (the limit is {formatBytes(LARGE_NOTE_BYTES)}). It is shown read-only; open it in
          another editor to change it.
        </div>
      )}
      {highlight && !isEditing && !isLarge && (
        <div className="hit-note" data-testid="hit-note">
          Showing lines {highlight.startLine}–{highlight.endLine} from your search.
          <button type="button" className="link-button" onClick={memory.clearHighlight}>
            Clear highlight
          </button>
        </div>
      )}
      {isEditing && memory.hasDiskChanged && !memory.conflict && (
        <div className="banner banner-warn" role="status" data-testid="disk-changed">
          This file changed on disk while you were editing. Saving will be refused; copy your text, then reload.
        </div>
      )}
      {memory.conflict && <ConflictPanel message={memory.conflict} />}
      {memory.saveError && <ErrorNotice title="Not saved" error={memory.saveError} testId="save-error" />}
      {memory.linkRefusal && (
        <div className="banner banner-warn" role="alert" data-testid="link-refused">
          {memory.linkRefusal}
          <button type="button" className="link-button" onClick={() => memory.refuseLink(null)}>
            Dismiss
          </button>
        </div>
      )}

      <div className="doc-body">
        {docState === 'loading' && !doc && <p className="muted pad">Opening…</p>}
        {docState === 'error' && <ErrorNotice error={memory.docError} testId="doc-error" />}
        {doc && isEditing && (
          <Suspense fallback={<p className="muted pad">Opening the editor…</p>}>
            <Editor path={doc.path} />
          </Suspense>
        )}
        {doc && isLarge && (
          <Suspense fallback={<p className="muted pad">Opening…</p>}>
            <Editor path={doc.path} readOnlyText={doc.text} />
          </Suspense>
        )}
        {doc && !isEditing && !isLarge && memory.readMode === 'source' && (
          <SourceView
            text={doc.text}
            highlight={highlight}
            query={memory.highlightQuery}
            scrollRequest={memory.highlightRequest}
            onLineInfo={(line) => void openProvenance(lineRef(doc.path, line))}
          />
        )}
        {doc && !isEditing && !isLarge && memory.readMode === 'rendered' && (
          <Suspense fallback={<p className="muted pad">Rendering…</p>}>
            <RenderedView text={doc.text} highlight={highlight} scrollRequest={memory.highlightRequest} />
          </Suspense>
        )}
      </div>
      {doc && !isEditing && <Backlinks path={doc.path} />}
    </article>
  );
}

function countLines(text: string): number {
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}
