import type { ReverieStore } from '../../store/store.js';

/**
 * Mirrors app state onto <body> data attributes so tests (and people debugging) can wait on
 * `body[data-index-state="ready"]` instead of sleeping.
 */
export function exposeStateOnBody(store: ReverieStore): void {
  const apply = (): void => {
    const { app, memory, welcome } = store.getState();
    const body = document.body.dataset;
    if (body.indexState !== app.indexState) body.indexState = app.indexState;
    if (body.view !== app.view) body.view = app.view;
    const paused = app.isIndexingPaused ? 'true' : 'false';
    if (body.indexingPaused !== paused) body.indexingPaused = paused;
    if (body.engineState !== app.engine.state) body.engineState = app.engine.state;
    // `unknown` until workspace.info answers, so a test can wait for "hidden" after a reload.
    const welcomeState = welcome.info ? welcome.phase : 'unknown';
    if (body.welcome !== welcomeState) body.welcome = welcomeState;
    const dirty = memory.isDirty() ? 'true' : 'false';
    if (body.unsavedEdits !== dirty) body.unsavedEdits = dirty;
  };
  apply();
  store.subscribe(apply);
}

/**
 * The browser's own "leave site?" prompt while the editor holds unsaved text, or while a Reject,
 * Rollback or Forget waits for its Undo: that one is started now, and the prompt gives it time to land.
 */
export function guardUnsavedEditsOnUnload(store: ReverieStore): void {
  window.addEventListener('beforeunload', (event) => {
    const { memory, undo } = store.getState();
    const hasHeldAction = undo.held !== null;
    if (hasHeldAction) void undo.performNow();
    if (!memory.isDirty() && !hasHeldAction) return;
    event.preventDefault();
    event.returnValue = '';
  });
}
