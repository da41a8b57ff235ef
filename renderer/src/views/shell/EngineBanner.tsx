import { useReverie } from '../../store/useReverie.js';

/** Desktop app: the engine process crashed or restarts (on a crash, or on the workspace the person chose). */
export function EngineBanner() {
  const engine = useReverie((s) => s.app.engine);
  if (engine.state === 'running') return null;
  const isCrash = engine.reason === 'crash';
  return (
    <div
      className={`banner engine-banner ${isCrash ? 'banner-error' : 'banner-info'}`}
      role="alert"
      data-testid="engine-banner"
      data-engine-state={engine.state}
    >
      <span>
        {isCrash ? 'The Reverie engine stopped unexpectedly; restarting…' : 'Reverie is restarting on the workspace you chose…'}
        {engine.message && <span className="engine-banner-message"> {engine.message}</span>}
      </span>
    </div>
  );
}
