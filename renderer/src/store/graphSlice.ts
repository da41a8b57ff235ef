import { SourceTool, type GraphClaim, type GraphEntity, type GraphEvidence, type GraphFilters, type GraphSlice as GraphData, type OperationOutput, type OriginClass } from '../../../core/src/contract/index.js';
import { errorMessage } from '../client/memoryClient.js';
import type { SliceContext } from './types.js';

export type GraphNeighbors = OperationOutput<'graph.neighbors'>;
export type GraphExplanation = OperationOutput<'graph.explain'>;

type LoadState = 'idle' | 'loading' | 'ready' | 'error';

/** The node budget the view asks `graph.overview` for (the figure: 2,000 nodes). */
export const GRAPH_NODE_BUDGET = 2_000;

/** Every source tool and origin class, in the order the filter controls list them. */
export const ALL_TOOLS: readonly SourceTool[] = SourceTool.options;
export const ALL_ORIGINS: readonly OriginClass[] = ['owner', 'agent', 'untrusted', 'system'];

export interface GraphDetail {
  entityId: string;
  state: LoadState;
  neighbors: GraphNeighbors | null;
  error: string | null;
}

export interface GraphExplain {
  claimId: string;
  state: LoadState;
  explanation: GraphExplanation | null;
  error: string | null;
}

export interface GraphSlice {
  data: GraphData | null;
  state: LoadState;
  error: string | null;
  /** Node budget of the overview. */
  limit: number;
  /** Only claims valid at this date (YYYY-MM-DD); null shows everything. */
  validAt: string | null;
  /** Source tools shown (never empty; all of them means no tool filter). */
  tools: readonly SourceTool[];
  /** Origin classes shown (never empty; all of them means no origin filter). */
  origins: readonly OriginClass[];
  /** Draw "mentioned with" co-mentions too (off: stated relations only, ranked by their weight). */
  mentionedWith: boolean;
  /** The selected entity is shown as a page (`#/graph/entity/<id>`) rather than a card beside the drawing. */
  isPageOpen: boolean;
  /** First and last day any loaded claim was observed (for the time slider); from unfiltered loads. */
  dateRange: { min: string; max: string } | null;
  selectedId: string | null;
  detail: GraphDetail | null;
  explain: GraphExplain | null;

  /** `graph.overview` with the current filters. */
  load(): Promise<void>;
  setValidAt(date: string | null): Promise<void>;
  /** Shows only these source tools (an empty list is ignored: at least one stays shown). */
  setTools(tools: readonly SourceTool[]): Promise<void>;
  /** Shows only these origin classes (an empty list is ignored). */
  setOrigins(origins: readonly OriginClass[]): Promise<void>;
  /** Back to everything: all tools, all origins, all time. */
  clearFilters(): Promise<void>;
  setMentionedWith(on: boolean): Promise<void>;
  /** Opens an entity's page (its relations over time, facts, evidence). */
  openEntityPage(entityId: string): Promise<void>;
  /** Back from the page to the drawing, the entity still selected. */
  closeEntityPage(): void;
  /** Selects an entity and loads its relations (`graph.neighbors`). */
  select(entityId: string): Promise<void>;
  /** Opens the Graph view on an entity (from a Search hit), even one outside the overview's budget. */
  showEntity(entityId: string): Promise<void>;
  clearSelection(): void;
  explainClaim(claimId: string): Promise<void>;
  closeExplain(): void;
  /** The index changed: reload when the view is open (opening it always loads). */
  onIndexReady(): void;
  /** The last merge or split written to ALIASES.md: saving, done (what changed) or refused (the engine's sentence). */
  aliasEdit: { state: 'saving' | 'done' | 'error'; message: string } | null;
  /** Merges names into one entity (`graph.merge`, the first is shown); the graph follows on the next index-ready. */
  mergeNames(names: readonly string[]): Promise<void>;
  /** Keeps a name apart from an entity (`graph.split`). */
  splitName(name: string, from: string): Promise<void>;
}

/** `path:start-end`, the reference the Provenance inspector opens. */
export function evidenceRef(evidence: Pick<GraphEvidence, 'path' | 'startLine' | 'endLine'>): string {
  return `${evidence.path}:${evidence.startLine}-${evidence.endLine}`;
}

/** The first and last day any claim (or entity evidence) says it was observed. */
export function observedRange(data: GraphData): { min: string; max: string } | null {
  let min: string | null = null;
  let max: string | null = null;
  const see = (value: string | null): void => {
    if (!value || value.length < 10) return;
    const day = value.slice(0, 10);
    if (min === null || day < min) min = day;
    if (max === null || day > max) max = day;
  };
  for (const claim of data.edges) {
    see(claim.validFrom);
    see(claim.validUntil);
  }
  return min !== null && max !== null ? { min, max } : null;
}

/** Claims of the neighbourhood that concern the centre entity (relations either way, and literals). */
/** The filters sent with every graph query, or undefined when nothing is filtered. */
export function graphFiltersOf(state: Pick<GraphSlice, 'validAt' | 'tools' | 'origins'>): GraphFilters | undefined {
  const filters: GraphFilters = {};
  if (state.tools.length < ALL_TOOLS.length) filters.tools = ALL_TOOLS.filter((t) => state.tools.includes(t));
  if (state.origins.length < ALL_ORIGINS.length) filters.origins = ALL_ORIGINS.filter((o) => state.origins.includes(o));
  if (state.validAt) filters.validAt = state.validAt;
  return Object.keys(filters).length > 0 ? filters : undefined;
}

/** The same values in canonical order, or null when the list is empty or unknown values only. */
function canonical<T>(all: readonly T[], chosen: readonly T[]): T[] | null {
  const kept = all.filter((value) => chosen.includes(value));
  return kept.length > 0 ? kept : null;
}

const sameList = <T>(a: readonly T[], b: readonly T[]): boolean => a.length === b.length && a.every((v, i) => v === b[i]);

export function claimsOf(neighbors: GraphNeighbors): GraphClaim[] {
  const id = neighbors.center.id;
  return neighbors.edges.filter((claim) => claim.subject === id || claim.object === id);
}

export function labelIndex(entities: readonly GraphEntity[]): Map<string, GraphEntity> {
  return new Map(entities.map((entity) => [entity.id, entity]));
}

export function createGraphSlice({ set, get, client }: SliceContext<'graph'>): GraphSlice {
  const slice = (): GraphSlice => get().graph;
  let latestLoad = 0;
  let latestDetail = 0;
  let latestExplain = 0;
  /** An entity opened from elsewhere stays selected when the overview does not include it. */
  let pinned: string | null = null;

  const filters = (): GraphFilters | undefined => graphFiltersOf(slice());

  async function loadDetail(entityId: string): Promise<void> {
    const request = ++latestDetail;
    set({ detail: { entityId, state: 'loading', neighbors: null, error: null } });
    try {
      const f = filters();
      const neighbors = await client.call('graph.neighbors', { entity: entityId, hops: 1, limit: 200, ...(f ? { filters: f } : {}) });
      if (request !== latestDetail) return;
      set({ detail: { entityId, state: 'ready', neighbors, error: null } });
    } catch (error) {
      if (request !== latestDetail) return;
      set({ detail: { entityId, state: 'error', neighbors: null, error: errorMessage(error) } });
    }
  }

  return {
    data: null,
    state: 'idle',
    error: null,
    limit: GRAPH_NODE_BUDGET,
    validAt: null,
    tools: ALL_TOOLS,
    origins: ALL_ORIGINS,
    mentionedWith: false,
    isPageOpen: false,
    aliasEdit: null,
    dateRange: null,
    selectedId: null,
    detail: null,
    explain: null,

    async load() {
      const request = ++latestLoad;
      set({ state: 'loading', error: null });
      try {
        const f = filters();
        const data = await client.call('graph.overview', { limit: slice().limit, mentionedWith: slice().mentionedWith, ...(f ? { filters: f } : {}) });
        if (request !== latestLoad) return;
        const { selectedId, dateRange } = slice();
        const stillThere = selectedId !== null && (selectedId === pinned || data.entities.some((e) => e.id === selectedId));
        set({
          data,
          state: 'ready',
          // The slider spans the whole graph: only an unfiltered answer (or the first one) sets it.
          dateRange: f === undefined || dateRange === null ? observedRange(data) : dateRange,
          ...(stillThere ? {} : { selectedId: null, detail: null, explain: null, isPageOpen: false }),
        });
        if (stillThere && selectedId) void loadDetail(selectedId);
      } catch (error) {
        if (request !== latestLoad) return;
        set({ state: 'error', error: errorMessage(error) });
      }
    },

    async setValidAt(date) {
      if (slice().validAt === date) return;
      set({ validAt: date });
      await slice().load();
    },

    async setTools(tools) {
      const next = canonical(ALL_TOOLS, tools);
      if (!next || sameList(next, slice().tools)) return;
      set({ tools: next });
      await slice().load();
    },

    async setOrigins(origins) {
      const next = canonical(ALL_ORIGINS, origins);
      if (!next || sameList(next, slice().origins)) return;
      set({ origins: next });
      await slice().load();
    },

    async clearFilters() {
      if (graphFiltersOf(slice()) === undefined) return;
      set({ tools: ALL_TOOLS, origins: ALL_ORIGINS, validAt: null });
      await slice().load();
    },

    async setMentionedWith(on) {
      if (slice().mentionedWith === on) return;
      set({ mentionedWith: on });
      await slice().load();
    },

    async openEntityPage(entityId) {
      pinned = entityId;
      set({ isPageOpen: true });
      get().app.setView('graph');
      if (slice().selectedId !== entityId || slice().detail?.state === 'error') await slice().select(entityId);
    },

    closeEntityPage() {
      set({ isPageOpen: false });
    },

    async select(entityId) {
      if (entityId !== pinned) pinned = null;
      latestExplain++;
      set({ selectedId: entityId, explain: null, aliasEdit: null });
      await loadDetail(entityId);
    },

    async showEntity(entityId) {
      pinned = entityId;
      // Opening the view starts `graph.overview`; the pinned selection survives its answer.
      get().app.setView('graph');
      await slice().select(entityId);
    },

    clearSelection() {
      pinned = null;
      latestDetail++;
      latestExplain++;
      set({ selectedId: null, detail: null, explain: null, isPageOpen: false });
    },

    async explainClaim(claimId) {
      const request = ++latestExplain;
      set({ explain: { claimId, state: 'loading', explanation: null, error: null } });
      try {
        const explanation = await client.call('graph.explain', { claimId });
        if (request !== latestExplain) return;
        set({ explain: { claimId, state: 'ready', explanation, error: null } });
      } catch (error) {
        if (request !== latestExplain) return;
        set({ explain: { claimId, state: 'error', explanation: null, error: errorMessage(error) } });
      }
    },

    closeExplain() {
      latestExplain++;
      set({ explain: null });
    },

    async mergeNames(names) {
      set({ aliasEdit: { state: 'saving', message: `Merging ${names.join(' and ')}…` } });
      try {
        await client.call('graph.merge', { names: [...names] });
        set({ aliasEdit: { state: 'done', message: `Merged into ${names[0]}: ${names.slice(1).join(', ')} (saved in ALIASES.md; the graph updates after the next index).` } });
      } catch (error) {
        set({ aliasEdit: { state: 'error', message: errorMessage(error) } });
      }
    },

    async splitName(name, from) {
      set({ aliasEdit: { state: 'saving', message: `Keeping ${name} apart from ${from}…` } });
      try {
        await client.call('graph.split', { name, from });
        set({ aliasEdit: { state: 'done', message: `${name} is kept apart from ${from} (saved in ALIASES.md; the graph updates after the next index).` } });
      } catch (error) {
        set({ aliasEdit: { state: 'error', message: errorMessage(error) } });
      }
    },

    onIndexReady() {
      // Called on `graph-updated` (the graph follows index-ready). Opening the view loads again anyway; only an open view reloads now.
      if (get().app.view === 'graph') void slice().load();
    },
  };
}
