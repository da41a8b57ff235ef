import type { OriginClass, SessionKind } from '../../../../core/src/contract/index.js';
import { ORIGIN_INFO, SESSION_KIND_INFO } from './origin.js';

/** Who wrote a text: "you", agent, untrusted (warned) or system. */
export function OriginBadge({ origin, testId = 'origin-badge' }: { origin: OriginClass; testId?: string }) {
  const info = ORIGIN_INFO[origin];
  return (
    <span className={`origin-badge origin-${origin}`} data-testid={testId} data-origin={origin} title={info.title}>
      {info.isWarning && (
        <span className="origin-warning-sign" aria-hidden="true">
          ⚠{' '}
        </span>
      )}
      {info.label}
      {info.isWarning && <span className="visually-hidden">: {info.title}</span>}
    </span>
  );
}

export function SessionKindBadge({ kind }: { kind: SessionKind }) {
  const info = SESSION_KIND_INFO[kind];
  return (
    <span className="badge session-kind-badge" data-testid="session-kind-badge" data-session-kind={kind} title={info.title}>
      {info.label}
    </span>
  );
}
