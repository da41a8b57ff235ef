import type { GraphEvidence } from '../../../../core/src/contract/index.js';
import { Badge } from '../../components/Badge.js';
import { AliasControls } from './AliasControls.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { formatRoute } from '../../routing/route.js';
import { labelIndex } from '../../store/graphSlice.js';
import { useReverie } from '../../store/useReverie.js';
import { OriginBadge } from '../provenance/OriginBadge.js';
import { entityTimeline, periodOf, type TimelineRow } from './entityTimeline.js';
import { SOURCE_LABELS, TYPE_LABELS } from './graphStyle.js';
import { ModelTag } from './ModelTag.js';

const EVIDENCE_SHOWN = 8;
const MENTIONS_SHOWN = 30;

/** Evidence lines as links to the note, at those lines (the Memory view's address). */
function NoteLinks({ evidence }: { evidence: readonly GraphEvidence[] }) {
  if (evidence.length === 0) return null;
  const shown = evidence.slice(0, EVIDENCE_SHOWN);
  return (
    <ul className="entity-evidence">
      {shown.map((item) => {
        const lines = item.startLine === item.endLine ? String(item.startLine) : `${item.startLine}–${item.endLine}`;
        // Transcript lines outside the workspace have no note to open.
        const inWorkspace = !item.path.startsWith('/');
        return (
          <li key={`${item.path}:${item.startLine}-${item.endLine}`}>
            {inWorkspace ? (
              <a className="entity-note-link" data-testid="entity-note-link" href={formatRoute({ view: 'memory', path: item.path, lines: { startLine: item.startLine, endLine: item.endLine } })}>
                {item.path}:{lines}
              </a>
            ) : (
              <span>
                {item.path}:{lines}
              </span>
            )}
            {item.origin === 'untrusted' && <OriginBadge origin="untrusted" testId="entity-evidence-origin" />}
            {item.byModel && (
              <>
                {' '}
                <ModelTag testId="entity-evidence-model" />
              </>
            )}
          </li>
        );
      })}
      {evidence.length > shown.length && <li className="muted">and {evidence.length - shown.length} more</li>}
    </ul>
  );
}

function RelationRow({ row, centerLabel }: { row: TimelineRow; centerLabel: string }) {
  const openEntityPage = useReverie((s) => s.graph.openEntityPage);
  const predicate = row.claim.predicate.replace(/_/g, ' ');
  const other = row.other ? (
    <a className="entity-link" href={formatRoute({ view: 'graph', entityId: row.other.id, page: true })} onClick={(event) => {
      event.preventDefault();
      void openEntityPage(row.other!.id);
    }}>
      {row.other.label}
    </a>
  ) : (
    <span>?</span>
  );
  return (
    <li className={`entity-relation${row.isCurrent ? '' : ' is-ended'}`} data-testid="entity-relation" data-claim-id={row.claim.id} data-current={row.isCurrent}>
      <div className="entity-relation-line">
        <span className="entity-period muted" data-testid="entity-period">
          {row.period ?? 'undated'}
        </span>{' '}
        {row.direction === 'outgoing' ? (
          <>
            <strong>{centerLabel}</strong> {predicate} {other}
          </>
        ) : (
          <>
            {other} {predicate} <strong>{centerLabel}</strong>
          </>
        )}
        {!row.isCurrent && <Badge>ended</Badge>}
        {row.claim.weight > 1 && <span className="muted"> · stated {row.claim.weight}×</span>}
      </div>
      <NoteLinks evidence={row.claim.evidence} />
    </li>
  );
}

/** An entity as a page with an address (`#/graph/entity/<id>`): facts with their validity, relations over time, the lines behind them. */
export function EntityPage() {
  const selectedId = useReverie((s) => s.graph.selectedId);
  const detail = useReverie((s) => s.graph.detail);
  const data = useReverie((s) => s.graph.data);
  const closeEntityPage = useReverie((s) => s.graph.closeEntityPage);
  const select = useReverie((s) => s.graph.select);
  if (!selectedId) return null;
  const neighbors = detail?.entityId === selectedId ? detail.neighbors : null;
  const entity = neighbors?.center ?? data?.entities.find((e) => e.id === selectedId) ?? null;
  const entities = labelIndex([...(data?.entities ?? []), ...(neighbors?.entities ?? [])]);
  const timeline = neighbors ? entityTimeline(selectedId, neighbors.edges, entities) : null;
  const label = entity?.label ?? selectedId;
  return (
    <article className="entity-page" data-testid="entity-page" data-entity-id={selectedId} data-state={detail?.state ?? 'idle'} aria-labelledby="entity-page-title">
      <header className="entity-page-header">
        <button type="button" className="button button-small" data-testid="entity-page-back" onClick={closeEntityPage}>
          ← Graph
        </button>
        <h2 id="entity-page-title" className="entity-page-title" data-testid="entity-page-title">
          {label}
        </h2>
        {entity && (
          <p className="muted">
            <Badge testId="entity-page-type">{TYPE_LABELS[entity.type]}</Badge> {entity.sources.map((s) => SOURCE_LABELS[s]).join(', ')}{' '}
            {entity.origin === 'untrusted' && <OriginBadge origin="untrusted" testId="entity-page-origin" />}
          </p>
        )}
        {entity && entity.aliases.length > 0 && (
          <p className="entity-aliases" data-testid="entity-page-aliases">
            <span className="muted">Also called: </span>
            {entity.aliases.join(', ')}
          </p>
        )}
        {entity && <AliasControls label={entity.label} aliases={entity.aliases} />}
      </header>
      {detail?.state === 'loading' && <p className="muted">Loading…</p>}
      {detail?.state === 'error' && (
        <ErrorNotice variant="inline" title="This entity could not be loaded" error={detail.error} testId="entity-page-error" onRetry={() => void select(selectedId)} />
      )}
      {neighbors && (
        <>
          <section aria-labelledby="entity-facts">
            <h3 id="entity-facts">Facts</h3>
            {neighbors.facts.length === 0 ? (
              <p className="muted">No facts stated.</p>
            ) : (
              <ul className="entity-facts">
                {neighbors.facts.map((fact) => (
                  <li key={fact.id} data-testid="entity-fact" data-current={fact.validUntil === null} className={fact.validUntil ? 'is-ended' : ''}>
                    <span className="entity-period muted">{periodOf(fact) ?? 'undated'}</span> <strong>{fact.predicate.replace(/_/g, ' ')}</strong>: {fact.literal}
                    {fact.validUntil && <Badge>ended</Badge>}
                    <NoteLinks evidence={fact.evidence} />
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="entity-relations">
            <h3 id="entity-relations">Relations over time ({timeline!.relations.length})</h3>
            {timeline!.relations.length === 0 ? (
              <p className="muted">No stated relations.</p>
            ) : (
              <ol className="entity-relations">
                {timeline!.relations.map((row) => (
                  <RelationRow key={row.claim.id} row={row} centerLabel={label} />
                ))}
              </ol>
            )}
          </section>
          <section aria-labelledby="entity-seen">
            <h3 id="entity-seen">Seen in</h3>
            <NoteLinks evidence={neighbors.center.evidence} />
          </section>
          {timeline!.mentionedWith.length > 0 && (
            <details className="entity-mentions" data-testid="entity-mentioned-with">
              <summary>Mentioned with {timeline!.mentionedWith.length} others</summary>
              <ul>
                {timeline!.mentionedWith.slice(0, MENTIONS_SHOWN).map((row) => (
                  <li key={row.claim.id}>
                    {row.other?.label ?? '?'} <span className="muted">· together in {row.claim.weight} {row.claim.weight === 1 ? 'entry' : 'entries'}</span>
                  </li>
                ))}
              </ul>
            </details>
          )}
        </>
      )}
    </article>
  );
}
