import { useEffect, useRef } from 'react';
import type { ProvenanceChain } from '../../../../core/src/contract/index.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { TechnicalDetails } from '../../components/TechnicalDetails.js';
import { canOpenInMemory } from '../../store/provenanceSlice.js';
import { useReverie } from '../../store/useReverie.js';
import { ChainDetails } from './ChainDetails.js';
import { ForgetSection } from './ForgetSection.js';
import './provenance.css';

/** The Provenance inspector: a side panel over any view, for one search result or memory line. */
export function ProvenancePanel() {
  const isOpen = useReverie((s) => s.provenance.isOpen);
  return isOpen ? <ProvenanceDialog /> : null;
}

function ProvenanceDialog() {
  const provenance = useReverie((s) => s.provenance);
  const { ref, state, chain, openRequest, close } = provenance;
  const heading = useRef<HTMLHeadingElement>(null);
  const panel = useRef<HTMLElement>(null);
  const opener = useRef<Element | null>(null);

  // Each open (also from another result while the panel is up) moves focus to the panel's title.
  useEffect(() => {
    const active = document.activeElement;
    if (active && !panel.current?.contains(active) && active !== document.body) opener.current = active;
    heading.current?.focus();
  }, [openRequest]);

  // On close, focus goes back to what opened the panel when it is still on screen.
  useEffect(
    () => () => {
      const back = opener.current;
      if (back instanceof HTMLElement && back.isConnected) back.focus();
    },
    [],
  );

  // Esc closes from anywhere while the panel is open (and does not also clear the search box).
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent): void {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      event.stopPropagation();
      close();
    }
    document.addEventListener('keydown', onKeyDown, true);
    return () => document.removeEventListener('keydown', onKeyDown, true);
  }, [close]);

  return (
    <aside
      ref={panel}
      className="prov-panel"
      role="dialog"
      aria-modal="false"
      aria-labelledby="prov-title"
      data-testid="provenance-panel"
      data-state={state}
      data-ref={ref ?? undefined}
    >
      <header className="prov-header">
        <div className="prov-heading">
          <h2 id="prov-title" ref={heading} tabIndex={-1}>
            Where from?
          </h2>
        </div>
        <button
          type="button"
          className="prov-close"
          data-testid="provenance-close"
          aria-label="Close the Provenance inspector"
          title="Close (Esc)"
          onClick={close}
        >
          ×
        </button>
      </header>
      <div className="prov-body">
        {state === 'loading' && (
          <p className="muted" role="status">
            Looking up where this came from…
          </p>
        )}
        {state === 'error' && <LookupError />}
        {state === 'ready' && chain && <ReadyChain chain={chain} />}
      </div>
    </aside>
  );
}

function ReadyChain({ chain }: { chain: ProvenanceChain }) {
  const openInMemory = useReverie((s) => s.provenance.openInMemory);
  const cited = useReverie((s) => s.provenance.cited);
  const ref = useReverie((s) => s.provenance.ref);
  return (
    <>
      <ChainDetails chain={chain} cited={cited} onOpenFile={canOpenInMemory(chain) ? () => void openInMemory() : undefined} />
      <ForgetSection chain={chain} />
      <TechnicalDetails
        className="prov-technical"
        testId="provenance-technical"
        facts={[{ label: 'Reference (reverie why accepts it)', value: ref, testId: 'provenance-ref' }]}
      />
    </>
  );
}

function LookupError() {
  const { ref, error, errorCode, retry } = useReverie((s) => s.provenance);
  const fromSearch = ref?.startsWith('chunk:') ?? false;
  const headline =
    errorCode === 'not-found'
      ? fromSearch
        ? 'Not found: it may have changed since the search. Search again to get a fresh result.'
        : 'Not found: the file may have changed since it was indexed, or this line is not indexed.'
      : 'Could not look up where this came from.';
  return (
    <ErrorNotice
      className="prov-error"
      title={<strong>{headline}</strong>}
      error={error}
      errorPlacement="below"
      testId="provenance-error"
      code={errorCode}
      onRetry={() => void retry()}
      retryTestId="provenance-retry"
    />
  );
}
