import type { GraphEntity, GraphEntityAnswer } from '../../../../core/src/contract/index.js';
import { Badge } from '../../components/Badge.js';
import { evidenceRef } from '../../store/graphSlice.js';
import { useReverie } from '../../store/useReverie.js';
import { OriginBadge } from '../provenance/OriginBadge.js';
import { TYPE_LABELS } from './graphStyle.js';
import './graph.css';

/** "owns stg-01", "Kestrel runs on it", "(until 2026-10-20)" when the relation has ended. */
export function describeAnswer(answer: GraphEntityAnswer): string {
  const predicate = answer.predicate.replace(/_/g, ' ');
  const relation = answer.role === 'subject' ? `${predicate} ${answer.through}` : `${answer.through} ${predicate} it`;
  return answer.validUntil ? `${relation} (until ${answer.validUntil.slice(0, 10)})` : relation;
}

/** The Search view's "Graph" group: entities matching the query, apart from the chunk results. */
export function GraphHits({ entities }: { entities: readonly GraphEntity[] }) {
  const showEntity = useReverie((s) => s.graph.showEntity);
  const openProvenance = useReverie((s) => s.provenance.open);
  return (
    <section className="graph-hits" aria-labelledby="graph-hits-heading" data-testid="graph-hits">
      <h2 id="graph-hits-heading" className="graph-hits-heading">
        Graph
      </h2>
      <ul className="graph-hits-list">
        {entities.map((entity) => {
          const first = entity.evidence[0];
          return (
            <li key={entity.id} className="graph-hit" data-testid="graph-hit" data-entity-id={entity.id}>
              <button type="button" className="link-button graph-hit-label" title="Show in the Graph view" onClick={() => void showEntity(entity.id)}>
                {entity.label}
              </button>{' '}
              <Badge>{TYPE_LABELS[entity.type]}</Badge>
              {entity.answer && (
                <span className="graph-hit-answer" data-testid="graph-hit-answer">
                  {' '}
                  {describeAnswer(entity.answer)}
                </span>
              )}
              {entity.aliases.length > 0 && <span className="muted"> · also {entity.aliases.slice(0, 3).join(', ')}</span>}
              <span className="muted"> · {entity.degree} {entity.degree === 1 ? 'relation' : 'relations'}</span>
              {entity.origin === 'untrusted' && <OriginBadge origin="untrusted" testId="graph-hit-origin" />}
              {first && (
                <>
                  {' · '}
                  <button
                    type="button"
                    className="link-button graph-evidence-link"
                    data-testid="graph-hit-evidence"
                    onClick={() => void openProvenance(evidenceRef(first), { cited: { startLine: first.startLine, endLine: first.endLine } })}
                  >
                    {first.path}:{first.startLine}
                  </button>
                </>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
