import type { ReverieStore } from '../store/store.js';
import type { ReverieState } from '../store/types.js';
import type { Route } from './route.js';

/** The route that names what the window shows now. */
export function routeFromState(state: ReverieState): Route {
  const view = state.app.view;
  switch (view) {
    case 'search':
      return { view, query: state.search.query };
    case 'memory': {
      const { openPath, highlight } = state.memory;
      return { view, path: openPath, lines: openPath && highlight ? { startLine: highlight.startLine, endLine: highlight.endLine } : null };
    }
    case 'dreams':
      return { view, runId: state.dreams.selectedRunId };
    case 'graph':
      return state.graph.isPageOpen && state.graph.selectedId ? { view, entityId: state.graph.selectedId, page: true } : { view, entityId: state.graph.selectedId };
    case 'settings':
      return { view, section: state.app.settingsSection };
    default:
      return { view };
  }
}

/**
 * Makes the window show a route (a deep link, Back, Forward, reload). Only what differs is
 * changed, so an open file is not re-read and a typed query is not searched twice.
 */
export function applyRoute(store: ReverieStore, route: Route): void {
  const state = store.getState();
  switch (route.view) {
    case 'search':
      state.app.setView('search');
      if (state.search.query !== route.query) state.search.setQuery(route.query);
      return;
    case 'memory': {
      const { openPath, highlight } = state.memory;
      const want = route.lines;
      const sameLines = want === null ? highlight === null : highlight?.startLine === want.startLine && highlight.endLine === want.endLine;
      state.app.setView('memory');
      // openFile asks before dropping unsaved edits; when the person says no, the open file stays.
      if (route.path && (route.path !== openPath || !sameLines)) void state.memory.openFile(route.path, want ? { highlight: want } : {});
      return;
    }
    case 'dreams':
      if (route.runId && route.runId !== state.dreams.selectedRunId) void state.dreams.selectRun(route.runId);
      state.app.setView('dreams');
      return;
    case 'graph':
      if (route.entityId && route.page) void state.graph.openEntityPage(route.entityId);
      else if (route.entityId && route.entityId !== state.graph.selectedId) void state.graph.showEntity(route.entityId);
      else if (!route.entityId && state.graph.selectedId) state.graph.clearSelection();
      if (!route.page && state.graph.isPageOpen) state.graph.closeEntityPage();
      state.app.setView('graph');
      return;
    case 'settings':
      state.app.showSettingsSection(route.section);
      return;
    default:
      state.app.setView(route.view);
  }
}
