import { useReverie } from '../../store/useReverie.js';

/** Shown when the engine cannot be reached or refused the token. */
export function ConnectionBanner() {
  const error = useReverie((s) => s.app.connectionError);
  const retry = useReverie((s) => s.status.refresh);
  if (!error) return null;
  return (
    <div className="banner banner-error" role="alert" data-testid="connection-error">
      <span>{error}</span>
      <button type="button" className="button" onClick={() => void retry()}>
        Try again
      </button>
    </div>
  );
}
