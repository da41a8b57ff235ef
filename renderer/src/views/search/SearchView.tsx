import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { SourceKind, StatusOutput } from '../../../../core/src/contract/index.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useReverie } from '../../store/useReverie.js';
import { GraphHits } from '../graph/GraphHits.js';
import { ResultItem, resultElementId } from './ResultItem.js';
import { rankNotes } from './rankNotes.js';
import './search.css';

const SOURCES: Array<{ source: SourceKind; label: string; hint: string }> = [
  { source: 'memory', label: 'Memory', hint: 'Your workspace notes' },
  { source: 'sessions', label: 'Sessions', hint: 'Agent transcripts (Codex, Claude Code, OpenClaw): searchable, never injected automatically' },
  { source: 'dreams', label: 'Dreams', hint: 'The dreaming diary (DREAMS.md), off by default' },
];

/** Nothing indexed but the starter files (an approximation of a first launch). */
export function isWorkspaceEmpty(status: StatusOutput | null): boolean {
  return status !== null && status.files.length <= 2;
}

export function SearchView() {
  const search = useReverie((s) => s.search);
  const indexState = useReverie((s) => s.app.indexState);
  const openProvenance = useReverie((s) => s.provenance.open);
  const isEmptyWorkspace = useReverie((s) => isWorkspaceEmpty(s.status.data));
  const setView = useReverie((s) => s.app.setView);
  const focusRequest = useReverie((s) => s.app.searchFocusRequest);
  const inputRef = useRef<HTMLInputElement>(null);
  const { results, selectedIndex, state, resultsQuery, query } = search;

  // On opening the view, and again for each focus-search command (menu, tray).
  useEffect(() => inputRef.current?.focus(), [focusRequest]);
  useEffect(() => {
    document.getElementById(resultElementId(selectedIndex))?.scrollIntoView({ block: 'nearest' });
  }, [selectedIndex]);

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>): void {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      search.moveSelection(event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      void search.submit();
    }
  }

  const hasResults = results.length > 0;
  const notes = rankNotes(results);
  const isStale = state === 'loading' || resultsQuery !== query;

  return (
    <section className="view search-view" aria-labelledby="search-heading">
      <h1 id="search-heading" className="visually-hidden">
        Search
      </h1>
      {isEmptyWorkspace && (
        <div className="banner banner-info" data-testid="import-offer">
          <span>Your workspace is empty. Already using a coding agent? Bring its memory along.</span>
          <button type="button" className="button" data-testid="import-offer-open" onClick={() => setView('imports')}>
            Import memory from your coding agents
          </button>
        </div>
      )}
      <div className="search-controls">
        <label htmlFor="search-input" className="search-label">
          Search your memory
        </label>
        <input
          id="search-input"
          ref={inputRef}
          className="search-input"
          data-testid="search-input"
          type="search"
          role="combobox"
          autoComplete="off"
          spellCheck={false}
          placeholder="What do you want to remember? Try a word, a date (2026-11-03) or a file name"
          aria-expanded={hasResults}
          aria-controls="search-results"
          aria-activedescendant={hasResults ? resultElementId(selectedIndex) : undefined}
          value={query}
          onChange={(event) => search.setQuery(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <fieldset className="source-filter">
          <legend>Sources</legend>
          {SOURCES.map(({ source, label, hint }) => (
            <label key={source} className="checkbox" title={hint}>
              <input
                type="checkbox"
                data-testid={`source-${source}`}
                checked={search.sources.includes(source)}
                disabled={search.sources.length === 1 && search.sources.includes(source)}
                onChange={() => search.toggleSource(source)}
              />
              {label}
            </label>
          ))}
        </fieldset>
      </div>

      <div className="search-meta" aria-live="polite" data-testid="search-meta">
        {state === 'ready' && hasResults && (
          <>
            {results.length} {results.length === 1 ? 'result' : 'results'}
            {search.tookMs !== null && ` · ${search.tookMs} ms`} · ↑↓ to move, Enter to open
          </>
        )}
        {state === 'loading' && !hasResults && 'Searching…'}
        {state === 'idle' && indexState !== 'ready' && 'Results appear once the index is ready; you can already type.'}
      </div>

      {state === 'error' && <ErrorNotice title="Search failed" error={search.error} testId="search-error" />}
      {search.graphHits.length > 0 && <GraphHits entities={search.graphHits} />}
      {state === 'ready' && !hasResults && search.graphHits.length === 0 && (
        <EmptyState centered testId="search-empty">
          No results for “{resultsQuery}”.
          {search.sources.length < SOURCES.length && ' Try including the other sources, or fewer words.'}
        </EmptyState>
      )}

      {hasResults && (
        <ul
          id="search-results"
          role="listbox"
          aria-label="Search results"
          className={`results${isStale ? ' is-stale' : ''}`}
          data-testid="search-results"
        >
          {results.map((result, i) => (
            <ResultItem
              key={result.id}
              index={i}
              result={result}
              query={resultsQuery}
              isSelected={i === selectedIndex}
              rankNote={notes[i] ?? null}
              onOpen={() => search.openResult(i)}
              onHover={() => search.select(i)}
              onWhereFrom={() => void openProvenance(result.id, { cited: { startLine: result.startLine, endLine: result.endLine } })}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
