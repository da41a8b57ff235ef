import { useEffect, useState } from 'react';
import { WORKSPACE_SOURCE, type EntityType, type SourceTool } from '../../../../core/src/contract/index.js';
import { ALL_ORIGINS, ALL_TOOLS, graphFiltersOf } from '../../store/graphSlice.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useReverie } from '../../store/useReverie.js';
import { GraphCanvas } from './GraphCanvas.js';
import { EntityPage } from './EntityPage.js';
import { GraphDetailCard } from './GraphDetailCard.js';
import { GraphFilterControls, describeShown } from './GraphFilterControls.js';
import { ORIGIN_LABELS, SOURCE_COLORS, SOURCE_LABELS, TYPE_COLORS, TYPE_LABELS, UNTRUSTED_RING } from './graphStyle.js';
import { addDays, daysBetween } from './graphTime.js';
import './graph.css';

const count = (n: number): string => n.toLocaleString('en-US');

/** The knowledge graph: who and what is in memory and how it connects, each item traceable to its lines. */
export function GraphView() {
  const data = useReverie((s) => s.graph.data);
  const state = useReverie((s) => s.graph.state);
  const error = useReverie((s) => s.graph.error);
  const selectedId = useReverie((s) => s.graph.selectedId);
  const load = useReverie((s) => s.graph.load);
  const select = useReverie((s) => s.graph.select);
  const clearSelection = useReverie((s) => s.graph.clearSelection);
  const isPageOpen = useReverie((s) => s.graph.isPageOpen);
  const isEmpty = data !== null && data.entities.length === 0;
  if (isPageOpen && selectedId) {
    return (
      <section className="view graph-view" aria-label="Entity" data-testid="graph-view" data-state={state}>
        <EntityPage />
      </section>
    );
  }
  return (
    <section className="view graph-view" aria-labelledby="graph-heading" data-testid="graph-view" data-state={state}>
      <header className="view-header">
        <h1 id="graph-heading">Graph</h1>
        <div className="button-row">
          <button type="button" className="button" data-testid="graph-reload" disabled={state === 'loading'} onClick={() => void load()}>
            {state === 'loading' ? 'Loading…' : 'Reload'}
          </button>
        </div>
      </header>
      <div className="graph-toolbar">
        <Counts />
        <TimeSlider />
        <MentionedWithToggle />
        <GraphFilterControls />
      </div>
      {state === 'error' && <ErrorNotice title="The graph could not be loaded" error={error} testId="graph-error" onRetry={() => void load()} />}
      {data === null && state === 'loading' && (
        <p className="muted" role="status" data-testid="graph-loading">
          Loading the graph…
        </p>
      )}
      {isEmpty && <EmptyGraph />}
      {data !== null && !isEmpty && (
        <div className={`graph-stage${selectedId ? ' with-card' : ''}`}>
          <GraphCanvas data={data} selectedId={selectedId} onSelect={(id) => void select(id)} onClear={clearSelection} />
          <Legend />
          {selectedId && <GraphDetailCard />}
        </div>
      )}
    </section>
  );
}

/** Nothing to draw: an empty workspace, or filters that leave nothing (then they can be cleared). */
function EmptyGraph() {
  const validAt = useReverie((s) => s.graph.validAt);
  const tools = useReverie((s) => s.graph.tools);
  const origins = useReverie((s) => s.graph.origins);
  const clearFilters = useReverie((s) => s.graph.clearFilters);
  const filters = graphFiltersOf({ validAt, tools, origins });
  if (!filters) {
    return (
      <EmptyState centered className="graph-empty" testId="graph-empty" role="status">
        No entities yet — write notes with names, <code>[[links]]</code> or <code>#tags</code>.
      </EmptyState>
    );
  }
  const parts = [
    filters.tools ? `from ${describeShown(ALL_TOOLS, tools, SOURCE_LABELS, '')}` : null,
    filters.origins ? `of origin ${describeShown(ALL_ORIGINS, origins, ORIGIN_LABELS, '').toLowerCase()}` : null,
    filters.validAt ? `valid on ${filters.validAt}` : null,
  ].filter((part): part is string => part !== null);
  return (
    <EmptyState
      centered
      className="graph-empty"
      testId="graph-empty"
      data-filtered="true"
      role="status"
      action={
        <button type="button" className="button" data-testid="graph-clear-filters" onClick={() => void clearFilters()}>
          Clear filters
        </button>
      }
    >
      Nothing in the graph matches these filters ({parts.join(', ')}).
    </EmptyState>
  );
}

/** Co-mentions are evidence, not relations: drawn only when asked for. */
function MentionedWithToggle() {
  const mentionedWith = useReverie((s) => s.graph.mentionedWith);
  const setMentionedWith = useReverie((s) => s.graph.setMentionedWith);
  return (
    <label className="graph-mentions-toggle" title="Entities named in the same entry, without a stated relation">
      <input type="checkbox" data-testid="graph-mentioned-with" checked={mentionedWith} onChange={(event) => void setMentionedWith(event.target.checked)} />
      Show “mentioned with”
    </label>
  );
}

function Counts() {
  const data = useReverie((s) => s.graph.data);
  if (!data) return null;
  const shown = data.entities.length;
  const total = shown + data.omitted.entities;
  const relations = `${count(data.edges.length)} ${data.edges.length === 1 ? 'relation' : 'relations'}`;
  return (
    <p className="graph-counts" data-testid="graph-counts">
      {data.omitted.entities > 0 ? (
        <>
          Showing {count(shown)} of {count(total)} entities (the most related); {count(data.omitted.edges)} relations left out.
        </>
      ) : data.omitted.edges > 0 ? (
        <>
          {count(shown)} {shown === 1 ? 'entity' : 'entities'}; showing {relations} (the strongest of each entity), {count(data.omitted.edges)} left out.
        </>
      ) : (
        <>
          {count(shown)} {shown === 1 ? 'entity' : 'entities'}, {relations}
        </>
      )}
    </p>
  );
}

const SLIDER_DEBOUNCE_MS = 250;

/** "Valid at": a day between the first and last observation; all time when off. */
function TimeSlider() {
  const range = useReverie((s) => s.graph.dateRange);
  const validAt = useReverie((s) => s.graph.validAt);
  const setValidAt = useReverie((s) => s.graph.setValidAt);
  const [draft, setDraft] = useState<string | null>(validAt);
  useEffect(() => setDraft(validAt), [validAt]);
  useEffect(() => {
    if (draft === validAt) return;
    const timer = setTimeout(() => void setValidAt(draft), SLIDER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, validAt, setValidAt]);
  if (!range) return null;
  const span = Math.max(0, daysBetween(range.min, range.max));
  const position = draft === null ? span : Math.min(span, Math.max(0, daysBetween(range.min, draft)));
  return (
    <div className="graph-time" data-testid="graph-time">
      <label className="graph-time-toggle">
        <input
          type="checkbox"
          data-testid="graph-time-enabled"
          checked={draft !== null}
          onChange={(event) => setDraft(event.target.checked ? range.max : null)}
        />
        Valid at
      </label>
      <input
        type="range"
        min={0}
        max={span}
        step={1}
        value={position}
        disabled={draft === null || span === 0}
        aria-label="Show claims valid at this date"
        data-testid="graph-time-slider"
        onChange={(event) => setDraft(addDays(range.min, Number(event.target.value)))}
      />
      <span className="graph-time-value" data-testid="graph-time-value">
        {draft ?? 'all time'}
      </span>
    </div>
  );
}

function Swatch({ fill, ring }: { fill: string; ring: string }) {
  return (
    <svg className="graph-swatch" width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">
      <circle cx="7" cy="7" r="5.5" fill={fill} stroke={ring} strokeWidth="2.5" />
    </svg>
  );
}

function Legend() {
  const data = useReverie((s) => s.graph.data);
  if (!data) return null;
  const types = [...new Set(data.entities.map((e) => e.type))].sort() as EntityType[];
  const sources = [...new Set(data.entities.flatMap((e) => e.sources))].sort() as SourceTool[];
  const hasUntrusted = data.entities.some((e) => e.origin === 'untrusted');
  return (
    <aside className="graph-legend" aria-label="Legend" data-testid="graph-legend">
      <h2 className="graph-legend-title">Types</h2>
      <ul>
        {types.map((type) => (
          <li key={type}>
            <Swatch fill={TYPE_COLORS[type]} ring={TYPE_COLORS[type]} /> {TYPE_LABELS[type]}
          </li>
        ))}
      </ul>
      <h2 className="graph-legend-title">Ring: source</h2>
      <ul>
        {sources.map((source) => (
          <li key={source}>
            <Swatch fill="#d9d9d9" ring={source === WORKSPACE_SOURCE ? '#bbbbbb' : (SOURCE_COLORS[source] ?? '#999999')} /> {SOURCE_LABELS[source]}
          </li>
        ))}
        {hasUntrusted && (
          <li>
            <Swatch fill="#d9d9d9" ring={UNTRUSTED_RING} /> Untrusted
          </li>
        )}
      </ul>
    </aside>
  );
}
