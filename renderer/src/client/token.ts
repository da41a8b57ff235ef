const STORAGE_KEY = 'reverie.token';

/**
 * The per-launch token arrives in the URL fragment (`#token=…`, never sent to the server).
 * It is kept for this tab in sessionStorage and removed from the address bar and history.
 */
export function takeLaunchToken(): string | null {
  const fromHash = new URLSearchParams(location.hash.replace(/^#/, '')).get('token');
  if (fromHash) {
    try {
      sessionStorage.setItem(STORAGE_KEY, fromHash);
    } catch {
      // Storage may be disabled; the token still works for this page load.
    }
    history.replaceState(history.state, '', location.pathname + location.search);
    return fromHash;
  }
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}
