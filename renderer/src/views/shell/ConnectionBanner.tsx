import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useReverie } from '../../store/useReverie.js';

/** Shown when the engine cannot be reached or refused the token. */
export function ConnectionBanner() {
  const error = useReverie((s) => s.app.connectionError);
  const retry = useReverie((s) => s.status.refresh);
  if (!error) return null;
  return <ErrorNotice error={error} testId="connection-error" onRetry={() => void retry()} />;
}
