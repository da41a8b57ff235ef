import { operations, type GraphEntity, type SearchResult, type SourceKind } from '../../../core/src/contract/index.js';
import { errorMessage } from '../client/memoryClient.js';
import type { SliceContext } from './types.js';

/** Type-ahead delay: long enough to skip keystrokes, short enough to feel instant. */
export const SEARCH_DEBOUNCE_MS = 120;
const RESULT_LIMIT = 30;
/** A query left alone this long has settled: it is recorded as one look (a recall for dreaming). */
export const SEARCH_SETTLE_MS = 1500;

/** The engine's own default (memory and agent transcripts, not the dreaming diary), read from the contract. */
export const DEFAULT_SOURCES: readonly SourceKind[] = operations['memory.search'].input.parse({ query: '' }).sources;

export interface SearchSlice {
  query: string;
  sources: SourceKind[];
  results: SearchResult[];
  /** Knowledge-graph entities matching the query (a separate group; results stay chunk results). */
  graphHits: GraphEntity[];
  /** The query the shown results answer (may lag `query` while typing). */
  resultsQuery: string;
  state: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  tookMs: number | null;
  selectedIndex: number;

  setQuery(query: string): void;
  toggleSource(source: SourceKind): void;
  /** Runs the current query now (used after the index changes). */
  rerun(): void;
  moveSelection(delta: number): void;
  select(index: number): void;
  /** Opens a result in the Memory view at its line range (transcript text, which is no file, in the Provenance inspector). */
  openResult(index: number): void;
  /** Enter in the search box: opens the selected result of the current query (searching first if needed). */
  submit(): Promise<void>;
}

export function createSearchSlice({ set, get, client }: SliceContext<'search'>): SearchSlice {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let settleTimer: ReturnType<typeof setTimeout> | null = null;
  // Only the newest request may update the list: older answers are dropped when they land.
  let latestRequest = 0;
  /** The last query (with its sources) recorded as a recall, so a settled query counts once. */
  let recorded = '';

  // Type-ahead searches are not recalls: the query is recorded once it settles (Enter, an
  // opened result, or SEARCH_SETTLE_MS without typing), by the same search with recall on.
  function settle(): void {
    if (settleTimer) clearTimeout(settleTimer);
    settleTimer = null;
    const { resultsQuery, sources, state } = get().search;
    const key = `${resultsQuery}\u0000${sources.join(',')}`;
    if (state !== 'ready' || resultsQuery.trim() === '' || key === recorded) return;
    recorded = key;
    void client.call('memory.search', { query: resultsQuery, sources, limit: RESULT_LIMIT, recall: true }).catch(() => undefined);
  }

  async function run(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    const { query, sources } = get().search;
    const request = ++latestRequest;
    if (query.trim() === '') {
      set({ results: [], graphHits: [], resultsQuery: '', state: 'idle', error: null, tookMs: null, selectedIndex: 0 });
      return;
    }
    set({ state: 'loading', error: null });
    try {
      const answer = await client.call('memory.search', { query, sources, limit: RESULT_LIMIT, graph: true, recall: false });
      if (request !== latestRequest) return;
      set({ results: answer.results, graphHits: answer.graph ?? [], resultsQuery: query, state: 'ready', tookMs: answer.tookMs, selectedIndex: 0 });
      if (settleTimer) clearTimeout(settleTimer);
      settleTimer = setTimeout(settle, SEARCH_SETTLE_MS);
    } catch (error) {
      if (request !== latestRequest) return;
      set({ state: 'error', error: errorMessage(error), results: [], graphHits: [], resultsQuery: query });
    }
  }

  return {
    query: '',
    sources: [...DEFAULT_SOURCES],
    results: [],
    graphHits: [],
    resultsQuery: '',
    state: 'idle',
    error: null,
    tookMs: null,
    selectedIndex: 0,

    setQuery(query) {
      set({ query });
      if (timer) clearTimeout(timer);
      if (settleTimer) clearTimeout(settleTimer);
      settleTimer = null;
      timer = setTimeout(() => void run(), SEARCH_DEBOUNCE_MS);
    },

    toggleSource(source) {
      const { sources } = get().search;
      const next = sources.includes(source) ? sources.filter((s) => s !== source) : [...sources, source];
      if (next.length === 0) return; // at least one source must stay selected
      set({ sources: next });
      void run();
    },

    rerun() {
      if (get().search.query.trim() !== '') void run();
    },

    moveSelection(delta) {
      const { results, selectedIndex } = get().search;
      if (results.length === 0) return;
      set({ selectedIndex: Math.min(results.length - 1, Math.max(0, selectedIndex + delta)) });
    },

    select(index) {
      set({ selectedIndex: index });
    },

    openResult(index) {
      const result = get().search.results[index];
      if (!result) return;
      set({ selectedIndex: index });
      settle(); // opening a result settles its query
      const state = get();
      if (result.source === 'sessions') {
        void state.provenance.open(result.id, { cited: { startLine: result.startLine, endLine: result.endLine } });
        return;
      }
      state.app.setView('memory');
      void state.memory.openFile(result.path, {
        highlight: { startLine: result.startLine, endLine: result.endLine },
        query: state.search.resultsQuery,
      });
    },

    async submit() {
      const current = get().search;
      if (current.query.trim() === '') return;
      // Enter pressed before the debounce fired: answer this query, not the previous one.
      if (current.resultsQuery !== current.query || current.state === 'loading') await run();
      const now = get().search;
      if (now.resultsQuery === now.query && now.results.length > 0) now.openResult(now.selectedIndex);
      else settle(); // Enter settles the query even when there is nothing to open
    },
  };
}
