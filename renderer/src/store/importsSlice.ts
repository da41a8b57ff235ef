import { ImportTool, toolLabel, type EngineEvent, type ImportPlan, type ImportReport, type OperationInput, type OperationOutput } from '../../../core/src/contract/index.js';
import type { ClientErrorCode } from '../client/clientError.js';
import { MemoryClientError, errorMessage } from '../client/memoryClient.js';
import type { SliceContext } from './types.js';

export type DetectedImportSource = OperationOutput<'import.detect'>['sources'][number];
export type ImportPlanItem = ImportPlan['items'][number];
export type ImportReportSummary = OperationOutput<'import.reports'>['reports'][number];
export type ImportProgressEvent = Extract<EngineEvent, { type: 'import-progress' }>;

export interface ImportProgress {
  phase: ImportProgressEvent['phase'];
  done: number;
  total: number;
  path: string | null;
}

export const IMPORT_TOOL_LABELS: Record<ImportTool, string> = Object.fromEntries(ImportTool.options.map((tool) => [tool, toolLabel(tool)]));

/** One tool/collection of a plan, in plan order. */
export interface ImportPlanGroup {
  key: string;
  tool: ImportTool;
  collection: string;
  items: ImportPlanItem[];
}

type LoadState = 'idle' | 'loading' | 'ready' | 'error';

export interface ImportsSlice {
  sources: DetectedImportSource[] | null;
  sourcesState: LoadState;
  sourcesError: string | null;

  /** The previewed plan (what `import.apply` gets as is). */
  plan: ImportPlan | null;
  planState: LoadState;
  planError: string | null;
  /** Destinations unticked in the preview: sent as `exclude`. */
  excluded: string[];
  /** Conflicting destinations are overwritten (with backups) instead of skipped. */
  replace: boolean;

  applyState: 'idle' | 'applying' | 'done' | 'error';
  applyError: string | null;
  applyErrorCode: ClientErrorCode | null;
  progress: ImportProgress | null;
  report: ImportReport | null;

  reports: ImportReportSummary[];
  reportsState: LoadState;
  reportsError: string | null;

  /** Detected sources and earlier reports (when the view opens). */
  load(): Promise<void>;
  detect(): Promise<void>;
  loadReports(): Promise<void>;
  /** Asks the engine for a plan; ticks every item again. */
  preview(): Promise<void>;
  toggleItem(destination: string): void;
  /** Ticks or unticks every selectable item of a tool/collection group. */
  setGroupIncluded(key: string, included: boolean): void;
  setReplace(replace: boolean): void;
  isIncluded(destination: string): boolean;
  /** The `import.apply` input for the plan on screen, or null without a plan. */
  applyInput(): OperationInput<'import.apply'> | null;
  apply(): Promise<void>;
  onProgress(event: ImportProgressEvent): void;
  /** Opens an imported file in the Memory view (asking first if that would drop unsaved edits). */
  openInMemory(destination: string): Promise<void>;
  /** Opens the Provenance inspector on the first line of an imported file. */
  whereFrom(destination: string): Promise<void>;
  /** Back to the preview step (drops the report on screen, keeps the list of earlier reports). */
  reset(): void;
}

/** Items a person can tick or untick: those that would be written (new, or conflicting). */
export function isSelectable(item: ImportPlanItem): item is ImportPlanItem & { destination: string } {
  return item.destination !== null && (item.status === 'new' || item.status === 'conflict');
}

export function groupKey(tool: ImportTool, collection: string): string {
  return `${tool}/${collection}`;
}

/** Plan items grouped by tool and collection, keeping the plan's order. */
export function groupPlanItems(items: readonly ImportPlanItem[]): ImportPlanGroup[] {
  const groups = new Map<string, ImportPlanGroup>();
  for (const item of items) {
    const key = groupKey(item.tool, item.collection);
    let group = groups.get(key);
    if (!group) {
      group = { key, tool: item.tool, collection: item.collection, items: [] };
      groups.set(key, group);
    }
    group.items.push(item);
  }
  return [...groups.values()];
}

/** Counts of a plan's items by status. */
export function planCounts(items: readonly ImportPlanItem[]): Record<ImportPlanItem['status'], number> {
  const counts = { new: 0, unchanged: 0, conflict: 0, skipped: 0 };
  for (const item of items) counts[item.status]++;
  return counts;
}

export function createImportsSlice({ set, get, client }: SliceContext<'imports'>): ImportsSlice {
  const slice = (): ImportsSlice => get().imports;
  let latestDetect = 0;
  let latestPlan = 0;
  let latestReports = 0;

  return {
    sources: null,
    sourcesState: 'idle',
    sourcesError: null,
    plan: null,
    planState: 'idle',
    planError: null,
    excluded: [],
    replace: false,
    applyState: 'idle',
    applyError: null,
    applyErrorCode: null,
    progress: null,
    report: null,
    reports: [],
    reportsState: 'idle',
    reportsError: null,

    async load() {
      await Promise.all([slice().detect(), slice().loadReports()]);
    },

    async detect() {
      const request = ++latestDetect;
      if (!slice().sources) set({ sourcesState: 'loading' });
      try {
        const { sources } = await client.call('import.detect', {});
        if (request !== latestDetect) return;
        set({ sources, sourcesState: 'ready', sourcesError: null });
      } catch (error) {
        if (request !== latestDetect) return;
        set({ sourcesState: 'error', sourcesError: errorMessage(error) });
      }
    },

    async loadReports() {
      const request = ++latestReports;
      if (slice().reportsState !== 'ready') set({ reportsState: 'loading' });
      try {
        const { reports } = await client.call('import.reports', {});
        if (request !== latestReports) return;
        set({ reports, reportsState: 'ready', reportsError: null });
      } catch (error) {
        if (request !== latestReports) return;
        set({ reportsState: 'error', reportsError: errorMessage(error) });
      }
    },

    async preview() {
      if (slice().applyState === 'applying') return;
      const request = ++latestPlan;
      set({ planState: 'loading', planError: null, report: null, applyState: 'idle', applyError: null, applyErrorCode: null, progress: null });
      try {
        const plan = await client.call('import.plan', {});
        if (request !== latestPlan) return;
        set({ plan, planState: 'ready', excluded: [] });
      } catch (error) {
        if (request !== latestPlan) return;
        set({ plan: null, planState: 'error', planError: errorMessage(error), excluded: [] });
      }
    },

    toggleItem(destination) {
      const { plan, applyState } = slice();
      if (!plan || applyState === 'applying') return;
      if (!plan.items.some((item) => isSelectable(item) && item.destination === destination)) return;
      set((s) => ({
        excluded: s.excluded.includes(destination) ? s.excluded.filter((d) => d !== destination) : [...s.excluded, destination],
      }));
    },

    setGroupIncluded(key, included) {
      const { plan, applyState, excluded } = slice();
      if (!plan || applyState === 'applying') return;
      const destinations = new Set(
        plan.items.filter((item) => isSelectable(item) && groupKey(item.tool, item.collection) === key).map((item) => item.destination as string),
      );
      const rest = excluded.filter((d) => !destinations.has(d));
      set({ excluded: included ? rest : [...rest, ...destinations] });
    },

    setReplace(replace) {
      if (slice().applyState === 'applying') return;
      set({ replace });
    },

    isIncluded(destination) {
      return !slice().excluded.includes(destination);
    },

    applyInput() {
      const { plan, replace, excluded } = slice();
      if (!plan) return null;
      // Only destinations this plan can write are sent (in plan order).
      const unticked = new Set(excluded);
      const exclude = plan.items.filter((item) => isSelectable(item) && unticked.has(item.destination)).map((item) => item.destination as string);
      return { plan, replace, exclude: [...new Set(exclude)] };
    },

    async apply() {
      const { applyState } = slice();
      const input = slice().applyInput();
      if (!input || applyState === 'applying') return;
      latestPlan++; // a preview still in flight must not replace the plan being applied
      set({ applyState: 'applying', applyError: null, applyErrorCode: null, progress: null, report: null, planState: 'ready' });
      try {
        const report = await client.call('import.apply', input);
        // The plan is spent: its fingerprint no longer matches the disk once files were copied.
        set({ applyState: 'done', report, progress: null, plan: null, planState: 'idle', excluded: [] });
      } catch (error) {
        set({
          applyState: 'error',
          applyError: errorMessage(error),
          applyErrorCode: error instanceof MemoryClientError ? error.code : null,
          progress: null,
        });
      }
      const state = get();
      void state.imports.loadReports();
      void state.imports.detect();
      void state.memory.loadFiles();
      void state.status.refresh();
    },

    onProgress(event) {
      // Only an apply started here draws the bar (the CLI may import into the same workspace).
      if (slice().applyState !== 'applying') return;
      set({ progress: { phase: event.phase, done: event.done, total: event.total, path: event.path } });
    },

    async openInMemory(destination) {
      const opening = get().memory.openFile(destination);
      // openFile asks about unsaved edits before anything else; switch views only when it went ahead.
      if (get().memory.openPath === destination) get().app.setView('memory');
      await opening;
    },

    async whereFrom(destination) {
      await get().provenance.open(`${destination}:1`);
    },

    reset() {
      if (slice().applyState === 'applying') return;
      set({ report: null, applyState: 'idle', applyError: null, applyErrorCode: null, progress: null });
    },
  };
}
