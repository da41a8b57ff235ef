import type { ReverieStore } from '../store/store.js';
import { HOME_ROUTE, formatRoute, isSamePlace, parseRoute, type Route } from './route.js';
import { applyRoute, routeFromState } from './routeState.js';

/** The part of `window.history` / `location` the router uses (a fake one in tests). */
export interface HistoryPort {
  hash(): string;
  push(hash: string): void;
  replace(hash: string): void;
  /** Back/Forward or an edited address: call `listener` with the new hash. Returns a disposer. */
  onNavigate(listener: () => void): () => void;
}

export function browserHistory(): HistoryPort {
  const url = (hash: string): string => location.pathname + location.search + hash;
  return {
    hash: () => location.hash,
    push: (hash) => history.pushState(null, '', url(hash)),
    replace: (hash) => history.replaceState(null, '', url(hash)),
    onNavigate(listener) {
      window.addEventListener('popstate', listener);
      window.addEventListener('hashchange', listener);
      return () => {
        window.removeEventListener('popstate', listener);
        window.removeEventListener('hashchange', listener);
      };
    },
  };
}

/**
 * Keeps the address bar and the store in step. Moving to another view or selection adds a
 * history entry (so Back returns to it); refining the same place (typing a query, the newest
 * dream run opening by itself) replaces the entry. Returns a disposer.
 */
export function syncUrlWithStore(store: ReverieStore, port: HistoryPort): () => void {
  let shown: Route = HOME_ROUTE;
  let isWriteQueued = false;
  // After following the address, the store's answer only corrects that entry (never adds one).
  let isFollowingAddress = false;

  const writeFromState = (): void => {
    isWriteQueued = false;
    const route = routeFromState(store.getState());
    const hash = formatRoute(route);
    const mustReplace = isFollowingAddress || isSamePlace(shown, route);
    isFollowingAddress = false;
    shown = route;
    if (hash === port.hash()) return;
    if (mustReplace) port.replace(hash);
    else port.push(hash);
  };

  // One action often changes several slices (open Memory, then the file): one history entry for all.
  const queueWrite = (): void => {
    if (isWriteQueued) return;
    isWriteQueued = true;
    queueMicrotask(writeFromState);
  };

  const followAddress = (): void => {
    shown = parseRoute(port.hash()) ?? HOME_ROUTE;
    isFollowingAddress = true;
    applyRoute(store, shown);
    queueWrite();
  };

  followAddress();
  const offStore = store.subscribe(queueWrite);
  const offNavigate = port.onNavigate(() => {
    if (port.hash() !== formatRoute(shown)) followAddress();
  });
  return () => {
    offStore();
    offNavigate();
  };
}
