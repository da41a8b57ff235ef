import type { GraphClaim, GraphEntity, GraphEvidence } from '../../../../core/src/contract/index.js';
import { Badge } from '../../components/Badge.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { claimsOf, evidenceRef, labelIndex } from '../../store/graphSlice.js';
import { useReverie } from '../../store/useReverie.js';
import { OriginBadge } from '../provenance/OriginBadge.js';
import { SOURCE_LABELS, TYPE_LABELS } from './graphStyle.js';
import { isModelOnly, ModelTag } from './ModelTag.js';

const EVIDENCE_SHOWN = 5;

/** Evidence lines as links into the Provenance inspector. */
function EvidenceLinks({ evidence }: { evidence: readonly GraphEvidence[] }) {
  const open = useReverie((s) => s.provenance.open);
  if (evidence.length === 0) return null;
  const shown = evidence.slice(0, EVIDENCE_SHOWN);
  return (
    <ul className="graph-evidence">
      {shown.map((item) => {
        const ref = evidenceRef(item);
        return (
          <li key={`${ref}:${item.chunkId ?? ''}`}>
            <button
              type="button"
              className="link-button graph-evidence-link"
              data-testid="graph-evidence-link"
              data-ref={ref}
              title="Show where this comes from (Provenance inspector)"
              onClick={() => void open(ref, { cited: { startLine: item.startLine, endLine: item.endLine } })}
            >
              {item.path}:{item.startLine === item.endLine ? item.startLine : `${item.startLine}–${item.endLine}`}
            </button>
            {item.origin === 'untrusted' && <OriginBadge origin="untrusted" testId="graph-evidence-origin" />}
            {item.byModel && <> <ModelTag testId="graph-evidence-model" /></>}
            {item.dreamRun && <span className="muted"> (dream run {item.dreamRun})</span>}
          </li>
        );
      })}
      {evidence.length > shown.length && <li className="muted">and {evidence.length - shown.length} more</li>}
    </ul>
  );
}

function validity(claim: GraphClaim): string | null {
  if (!claim.validFrom && !claim.validUntil) return null;
  if (claim.validUntil) return `${claim.validFrom?.slice(0, 10) ?? '?'} – ${claim.validUntil.slice(0, 10)}`;
  return `since ${claim.validFrom!.slice(0, 10)}`;
}

function ClaimRow({ claim, centerId, entities }: { claim: GraphClaim; centerId: string; entities: Map<string, GraphEntity> }) {
  const explain = useReverie((s) => s.graph.explain);
  const explainClaim = useReverie((s) => s.graph.explainClaim);
  const closeExplain = useReverie((s) => s.graph.closeExplain);
  const select = useReverie((s) => s.graph.select);
  const outgoing = claim.subject === centerId;
  const otherId = outgoing ? claim.object : claim.subject;
  const other = otherId ? entities.get(otherId) : undefined;
  const isOpen = explain?.claimId === claim.id;
  const when = validity(claim);
  return (
    <li className="graph-claim" data-testid="graph-claim" data-claim-id={claim.id}>
      <div className="graph-claim-line">
        {!outgoing && <span className="graph-claim-other">{other?.label ?? otherId ?? '?'} </span>}
        <span className="graph-predicate">{claim.predicate.replace(/_/g, ' ')}</span>{' '}
        {outgoing &&
          (claim.object === null ? (
            <span className="graph-literal">{claim.literal}</span>
          ) : otherId && other ? (
            <button type="button" className="link-button" onClick={() => void select(otherId)}>
              {other.label}
            </button>
          ) : (
            <span>{otherId}</span>
          ))}
        {!outgoing && <span className="muted"> (this)</span>}
      </div>
      <div className="graph-claim-meta muted">
        {when && <span>{when} · </span>}
        {claim.weight > 1 && <span>seen {claim.weight}× · </span>}
        <span>confidence {Math.round(claim.confidence * 100)}%</span>
        {claim.origin === 'untrusted' && <OriginBadge origin="untrusted" testId="graph-claim-origin" />}{' '}
        {isModelOnly(claim) && (
          <>
            <ModelTag testId="graph-claim-model" />{' '}
          </>
        )}
        <button
          type="button"
          className="link-button"
          data-testid="graph-explain"
          onClick={() => (isOpen ? closeExplain() : void explainClaim(claim.id))}
        >
          {isOpen ? 'Hide lines' : 'Why?'}
        </button>
      </div>
      <EvidenceLinks evidence={claim.evidence} />
      {isOpen && explain && (
        <div className="graph-explain" data-testid="graph-explain-lines" data-state={explain.state}>
          {explain.state === 'loading' && <p className="muted">Loading the lines…</p>}
          {explain.state === 'error' && <ErrorNotice variant="inline" className="graph-inline-error" error={explain.error} />}
          {explain.explanation && (
            <ol className="graph-explain-lines">
              {explain.explanation.lines.map((line) => (
                <li key={`${line.path}:${line.line}`}>
                  <code className="muted">
                    {line.path}:{line.line}
                  </code>{' '}
                  <span>{line.text}</span>
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
    </li>
  );
}

/** The selected entity: type, aliases, sources, evidence, and its claims and relations. */
export function GraphDetailCard() {
  const selectedId = useReverie((s) => s.graph.selectedId);
  const data = useReverie((s) => s.graph.data);
  const detail = useReverie((s) => s.graph.detail);
  const clearSelection = useReverie((s) => s.graph.clearSelection);
  const select = useReverie((s) => s.graph.select);
  const openEntityPage = useReverie((s) => s.graph.openEntityPage);
  if (!selectedId) return null;
  const neighbors = detail?.entityId === selectedId ? detail.neighbors : null;
  const entity = neighbors?.center ?? data?.entities.find((e) => e.id === selectedId) ?? null;
  const entities = labelIndex([...(data?.entities ?? []), ...(neighbors?.entities ?? [])]);
  const claims = neighbors ? claimsOf(neighbors) : [];
  const relations = claims.filter((c) => c.object !== null);
  const literals = neighbors?.facts ?? [];
  return (
    <aside className="graph-card" aria-label="Selected entity" data-testid="graph-card" data-entity-id={selectedId} data-state={detail?.state ?? 'idle'}>
      <header className="graph-card-header">
        <div>
          <h2 className="graph-card-title" data-testid="graph-card-title">
            {entity?.label ?? selectedId}
          </h2>
          {entity && (
            <p className="graph-card-sub muted">
              <Badge testId="graph-card-type">{TYPE_LABELS[entity.type]}</Badge>{' '}
              {entity.sources.map((s) => SOURCE_LABELS[s]).join(', ')}{' '}
              {entity.origin === 'untrusted' && <OriginBadge origin="untrusted" testId="graph-card-origin" />}
            </p>
          )}
        </div>
        <button type="button" className="button button-small" data-testid="graph-card-open-page" onClick={() => void openEntityPage(selectedId)}>
          Open page
        </button>
        <button type="button" className="button button-small" aria-label="Close" data-testid="graph-card-close" onClick={clearSelection}>
          ×
        </button>
      </header>
      {entity && entity.aliases.length > 0 && (
        <p className="graph-aliases">
          <span className="muted">Also: </span>
          {entity.aliases.join(', ')}
        </p>
      )}
      {entity && (
        <section>
          <h3 className="graph-card-section">Seen in</h3>
          <EvidenceLinks evidence={entity.evidence} />
        </section>
      )}
      {detail?.state === 'loading' && <p className="muted">Loading relations…</p>}
      {detail?.state === 'error' && (
        <ErrorNotice
          variant="inline"
          className="graph-inline-error"
          title="Relations could not be loaded"
          error={detail.error}
          testId="graph-card-error"
          onRetry={() => void select(selectedId)}
        />
      )}
      {literals.length > 0 && (
        <section>
          <h3 className="graph-card-section">Facts</h3>
          <ul className="graph-claims">
            {literals.map((claim) => (
              <ClaimRow key={claim.id} claim={claim} centerId={selectedId} entities={entities} />
            ))}
          </ul>
        </section>
      )}
      {neighbors && (
        <section>
          <h3 className="graph-card-section">Relations ({relations.length})</h3>
          {relations.length === 0 ? (
            <p className="muted">No relations.</p>
          ) : (
            <ul className="graph-claims">
              {relations.map((claim) => (
                <ClaimRow key={claim.id} claim={claim} centerId={selectedId} entities={entities} />
              ))}
            </ul>
          )}
        </section>
      )}
    </aside>
  );
}
