import { isView, type View } from '../store/appSlice.js';

/** Lines of a file shown highlighted (1-based, inclusive). */
export interface RouteLines {
  startLine: number;
  endLine: number;
}

/** The settings sections a URL can point at; each is a card in the Settings view. */
export const SETTINGS_SECTIONS = ['search', 'dreaming', 'graph', 'models'] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

/**
 * What the address bar says: a view and the selection inside it. The access token is never part
 * of a route (it is kept in session storage, see client/token.ts).
 */
export type Route =
  | { view: 'search'; query: string }
  | { view: 'memory'; path: string | null; lines: RouteLines | null }
  | { view: 'dreams'; runId: string | null }
  | { view: 'graph'; entityId: string | null; /** The entity's page rather than the drawing with its card. */ page?: true }
  | { view: 'settings'; section: SettingsSection | null }
  | { view: 'imports' | 'agents' | 'status' };

export const HOME_ROUTE: Route = { view: 'search', query: '' };

/** `#/memory/memory/notes.md?line=4-9`, `#/search?q=backups`, `#/dreams/<run>`, `#/graph/<entity>`, `#/graph/entity/<entity>` (its page), `#/settings/models`. */
export function formatRoute(route: Route): string {
  switch (route.view) {
    case 'search':
      return route.query ? `#/search?q=${encodeURIComponent(route.query)}` : '#/search';
    case 'memory': {
      if (!route.path) return '#/memory';
      const lines = route.lines ? `?line=${formatLines(route.lines)}` : '';
      return `#/memory/${route.path.split('/').map(encodeURIComponent).join('/')}${lines}`;
    }
    case 'dreams':
      return route.runId ? `#/dreams/${encodeURIComponent(route.runId)}` : '#/dreams';
    case 'graph':
      if (!route.entityId) return '#/graph';
      return `#/graph/${route.page ? 'entity/' : ''}${encodeURIComponent(route.entityId)}`;
    case 'settings':
      return route.section ? `#/settings/${route.section}` : '#/settings';
    default:
      return `#/${route.view}`;
  }
}

/** Reads a location hash; null when it is not a route (empty, or something a person mistyped). */
export function parseRoute(hash: string): Route | null {
  const body = hash.replace(/^#\/?/, '');
  if (!body) return null;
  const queryAt = body.indexOf('?');
  const pathPart = queryAt < 0 ? body : body.slice(0, queryAt);
  const params = new URLSearchParams(queryAt < 0 ? '' : body.slice(queryAt + 1));
  const slash = pathPart.indexOf('/');
  const view = slash < 0 ? pathPart : pathPart.slice(0, slash);
  const rest = slash < 0 ? '' : safeDecode(pathPart.slice(slash + 1));
  if (!isView(view) || rest === null) return null;
  return routeFor(view, rest, params);
}

function routeFor(view: View, rest: string, params: URLSearchParams): Route {
  switch (view) {
    case 'search':
      return { view, query: params.get('q') ?? '' };
    case 'memory':
      return { view, path: rest || null, lines: rest ? parseLines(params.get('line')) : null };
    case 'dreams':
      return { view, runId: rest || null };
    case 'graph': {
      const page = /^entity\/(.+)$/.exec(rest);
      return page ? { view, entityId: page[1]!, page: true } : { view, entityId: rest || null };
    }
    case 'settings':
      return { view, section: (SETTINGS_SECTIONS as readonly string[]).includes(rest) ? (rest as SettingsSection) : null };
    default:
      return { view };
  }
}

function formatLines({ startLine, endLine }: RouteLines): string {
  return startLine === endLine ? String(startLine) : `${startLine}-${endLine}`;
}

function parseLines(value: string | null): RouteLines | null {
  const match = value ? /^(\d{1,9})(?:-(\d{1,9}))?$/.exec(value) : null;
  if (!match) return null;
  const startLine = Number(match[1]);
  const endLine = match[2] ? Number(match[2]) : startLine;
  if (startLine < 1 || endLine < startLine) return null;
  return { startLine, endLine };
}

function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** Two routes name the same place, ignoring what only refines it (a search's words, a file's lines). */
export function isSamePlace(a: Route, b: Route): boolean {
  if (a.view !== b.view) return false;
  // Memory without a file names no file: whatever opens there refines it.
  if (a.view === 'memory' && b.view === 'memory') return a.path === null || a.path === b.path;
  // The newest run opens by itself when none is chosen: that refines the place, it is no new step.
  if (a.view === 'dreams' && b.view === 'dreams') return a.runId === null || a.runId === b.runId;
  if (a.view === 'graph' && b.view === 'graph') return a.entityId === b.entityId && Boolean(a.page) === Boolean(b.page);
  if (a.view === 'settings' && b.view === 'settings') return a.section === b.section;
  return true;
}
