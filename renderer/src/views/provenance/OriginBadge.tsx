import type { OriginClass, SessionKind } from '../../../../core/src/contract/index.js';
import { Badge } from '../../components/Badge.js';
import { ORIGIN_INFO, SESSION_KIND_INFO } from './origin.js';
import './OriginBadge.css';

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
    <Badge className="session-kind-badge" testId="session-kind-badge" data-session-kind={kind} title={info.title}>
      {info.label}
    </Badge>
  );
}
