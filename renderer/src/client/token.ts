const STORAGE_KEY = 'reverie.token';

/**
 * Splits the access token out of a location hash: `#token=…` (the URL `reverie serve` prints)
 * or a route with `token=…` among its parameters (`#/memory/x.md?line=3&token=…`).
 */
export function splitTokenFromHash(hash: string): { token: string | null; rest: string } {
  const body = hash.replace(/^#/, '');
  if (body.startsWith('token=')) return { token: new URLSearchParams(body).get('token'), rest: '' };
  const queryAt = body.indexOf('?');
  if (queryAt < 0) return { token: null, rest: hash };
  const params = new URLSearchParams(body.slice(queryAt + 1));
  const token = params.get('token');
  if (token === null) return { token: null, rest: hash };
  params.delete('token');
  const query = params.toString();
  return { token, rest: `#${body.slice(0, queryAt)}${query ? `?${query}` : ''}` };
}

/**
 * The per-launch token arrives in the URL fragment (never sent to the server). It is kept for
 * this tab in sessionStorage and removed from the address bar and history; the route stays.
 */
export function takeLaunchToken(): string | null {
  const { token, rest } = splitTokenFromHash(location.hash);
  if (token) {
    try {
      sessionStorage.setItem(STORAGE_KEY, token);
    } catch {
      // Storage may be disabled; the token still works for this page load.
    }
    history.replaceState(history.state, '', location.pathname + location.search + rest);
    return token;
  }
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}
