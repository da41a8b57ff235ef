import type { DreamConflict, DreamConflictSide } from '../../../../core/src/contract/index.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { resolveKey } from '../../store/dreamsSlice.js';
import { useReverie } from '../../store/useReverie.js';

/** Contradictions the sweeps could not order by date: two claims about the same thing, for the person to decide. */
export function Conflicts() {
  const conflicts = useReverie((s) => s.dreams.conflicts);
  const state = useReverie((s) => s.dreams.conflictsState);
  const error = useReverie((s) => s.dreams.conflictsError);
  return (
    <section className="card dreams-section" aria-labelledby="dream-conflicts-heading" data-testid="dream-conflicts">
      <h2 id="dream-conflicts-heading">Conflicts</h2>
      <p className="muted dreams-section-intro">
        Two entries about the same thing that disagree, written on the same day (or one of them undated), so dreaming cannot tell which is
        current. Neither is promoted until you decide; the next sweep follows your decision.
      </p>
      {state === 'error' && <ErrorNotice title="Could not list conflicts" error={error} testId="dream-conflicts-error" />}
      {state === 'loading' && conflicts.length === 0 && <p className="muted">Loading…</p>}
      {state === 'ready' && conflicts.length === 0 && <EmptyState testId="dream-conflicts-empty">No open conflicts.</EmptyState>}
      <ul className="dream-conflicts-list">
        {conflicts.map((c) => (
          <ConflictItem key={c.id} conflict={c} />
        ))}
      </ul>
    </section>
  );
}

function ConflictItem({ conflict }: { conflict: DreamConflict }) {
  const resolve = useReverie((s) => s.dreams.resolveConflict);
  const pending = useReverie((s) => s.dreams.pending);
  const actionError = useReverie((s) => s.dreams.actionError);
  const key = resolveKey(conflict.id);
  const busy = pending === key;
  return (
    <li className="dream-conflict" data-testid="dream-conflict" data-id={conflict.id}>
      <Side label="A" side={conflict.a} />
      <Side label="B" side={conflict.b} />
      <p className="muted dream-conflict-reason">{conflict.reason}</p>
      <div className="button-row">
        <button type="button" className="button button-small" data-testid="dream-conflict-keep-a" disabled={busy} onClick={() => void resolve(conflict.id, 'keep-a')}>
          Keep A
        </button>
        <button type="button" className="button button-small" data-testid="dream-conflict-keep-b" disabled={busy} onClick={() => void resolve(conflict.id, 'keep-b')}>
          Keep B
        </button>
        <button type="button" className="button button-small" data-testid="dream-conflict-keep-both" disabled={busy} onClick={() => void resolve(conflict.id, 'keep-both')}>
          Both are right
        </button>
        <button type="button" className="button button-small" data-testid="dream-conflict-dismiss" disabled={busy} onClick={() => void resolve(conflict.id, 'dismissed')}>
          Dismiss
        </button>
      </div>
      {actionError?.key === key && <ErrorNotice title="The decision was not saved" error={actionError.message} testId="dream-conflict-error" />}
    </li>
  );
}

function Side({ label, side }: { label: string; side: DreamConflictSide }) {
  return (
    <p className="dream-conflict-side">
      <strong>{label}:</strong> {side.text}{' '}
      <span className="muted">
        ({side.path}:{side.line}
        {side.day ? `, ${side.day}` : ''})
      </span>
    </p>
  );
}
