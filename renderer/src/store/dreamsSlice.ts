import type {
  DreamCandidate,
  DreamConflict,
  DreamDiary,
  DreamRun,
  DreamRunSummary,
  DreamSchedule,
  EngineEvent,
  PreImage,
} from '../../../core/src/contract/index.js';
import type { ClientErrorCode } from '../client/clientError.js';
import { MemoryClientError, errorMessage } from '../client/memoryClient.js';
import type { SliceContext } from './types.js';
import { quoteForToast } from './undoSlice.js';

export type DreamProgressEvent = Extract<EngineEvent, { type: 'dream-progress' }>;
export type DreamCompleteEvent = Extract<EngineEvent, { type: 'dream-complete' }>;

type LoadState = 'idle' | 'loading' | 'ready' | 'error';

export interface DreamProgress {
  runId: string;
  phase: DreamProgressEvent['phase'];
  done: number;
  total: number;
}

/** A failed write action (review, rollback, restore), shown next to what it acted on. */
export interface DreamActionError {
  /** `review:<runId>:<candidateKey>`, `rollback:<runId>`, `restore:<preImageId>` or `resolve:<conflictId>`. */
  key: string;
  message: string;
  code: ClientErrorCode | null;
}

/** How the last run started from this view (or seen finishing) ended, for a one-line notice. */
export interface DreamRunNotice {
  runId: string;
  status: DreamCompleteEvent['status'];
  reason: string | null;
  /** Null when only the `dream-complete` event was seen (a run started elsewhere). */
  dryRun: boolean | null;
}

/** How many runs are asked for; the list shows fewer and grows with "show more". */
export const DREAM_RUNS_LIMIT = 200;

export interface DreamsSlice {
  runs: DreamRunSummary[];
  schedule: DreamSchedule | null;
  runsState: LoadState;
  runsError: string | null;

  diary: DreamDiary | null;
  diaryState: LoadState;
  diaryError: string | null;

  preImages: PreImage[];
  preImagesState: LoadState;
  preImagesError: string | null;

  /** Open contradictions the sweeps queued for the person to decide. */
  conflicts: DreamConflict[];
  conflictsState: LoadState;
  conflictsError: string | null;

  /** The run whose card is open. */
  selectedRunId: string | null;
  run: DreamRun | null;
  runState: LoadState;
  runError: string | null;
  runErrorCode: ClientErrorCode | null;

  /** A `dream.run` started here: which kind, and its error when it was refused. */
  starting: { dryRun: boolean } | null;
  startError: string | null;
  startErrorCode: ClientErrorCode | null;
  /** Live progress of any run (started here, by the schedule, or from the CLI). */
  progress: DreamProgress | null;
  notice: DreamRunNotice | null;

  /** The key of the write action in flight (same keys as `DreamActionError`). */
  pending: string | null;
  actionError: DreamActionError | null;

  /** Runs, diary and pre-images (when the view opens or after a reconnect). */
  load(): Promise<void>;
  loadRuns(): Promise<void>;
  loadDiary(): Promise<void>;
  loadPreImages(): Promise<void>;
  loadConflicts(): Promise<void>;
  /** Decides a contradiction; the next sweep follows the decision. */
  resolveConflict(conflictId: string, decision: 'keep-a' | 'keep-b' | 'keep-both' | 'dismissed'): Promise<void>;
  selectRun(runId: string): Promise<void>;
  /** "Dream now" (settings' gates) or a dry run. */
  runNow(options?: { dryRun?: boolean }): Promise<void>;
  review(candidateKey: string, decision: 'approve' | 'reject'): Promise<void>;
  /** Undoes a run after asking. */
  rollback(runId: string): Promise<void>;
  /** Restores a file from a pre-image after asking. */
  restore(preImage: PreImage): Promise<void>;
  onProgress(event: DreamProgressEvent): void;
  onComplete(event: DreamCompleteEvent): void;
  /** Opens the Provenance inspector on a candidate's lines (`path:start-end`). */
  openEvidence(candidate: Pick<DreamCandidate, 'path' | 'startLine' | 'endLine'>): Promise<void>;
  dismissNotice(): void;
}

export function reviewKey(runId: string, candidateKey: string): string {
  return `review:${runId}:${candidateKey}`;
}

export function rollbackKey(runId: string): string {
  return `rollback:${runId}`;
}

export function resolveKey(conflictId: string): string {
  return `resolve:${conflictId}`;
}

export function restoreKey(preImageId: string): string {
  return `restore:${preImageId}`;
}

/** The reference the inspector takes for a candidate: always `path:start-end`. */
export function evidenceRef(candidate: Pick<DreamCandidate, 'path' | 'startLine' | 'endLine'>): string {
  return `${candidate.path}:${candidate.startLine}-${candidate.endLine}`;
}

/** A run can be undone when it wrote something and was not undone already; an interrupted (failed) run may have written before it stopped. */
export function canRollback(run: Pick<DreamRunSummary, 'dryRun' | 'rolledBack' | 'status'>): boolean {
  return !run.dryRun && run.rolledBack === null && (run.status === 'ok' || run.status === 'failed');
}

function codeOf(error: unknown): ClientErrorCode | null {
  return error instanceof MemoryClientError ? error.code : null;
}

export function createDreamsSlice({ set, get, client, confirm }: SliceContext<'dreams'>): DreamsSlice {
  const slice = (): DreamsSlice => get().dreams;
  let latestRuns = 0;
  let latestDiary = 0;
  let latestPreImages = 0;
  let latestConflicts = 0;
  let latestRun = 0;

  /** Everything a write may have changed: lists, the diary, the open run, and the Memory view's files. */
  function refreshAfterWrite(): void {
    const state = get();
    void state.dreams.loadRuns();
    void state.dreams.loadDiary();
    void state.dreams.loadPreImages();
    void state.dreams.loadConflicts();
    void state.memory.loadFiles();
  }

  /** A run returned by a write action replaces the open card when it is the same run. */
  function showRun(run: DreamRun): void {
    latestRun++;
    set({ selectedRunId: run.id, run, runState: 'ready', runError: null, runErrorCode: null });
  }

  /** Review or rollback for real: the run comes back updated; a failure shows beside what it acted on. */
  async function writeAction(key: string, call: () => Promise<DreamRun>): Promise<void> {
    set({ pending: key, actionError: null });
    try {
      const updated = await call();
      if (slice().selectedRunId === updated.id) showRun(updated);
      set({ pending: null });
    } catch (error) {
      set({ pending: null, actionError: { key, message: errorMessage(error), code: codeOf(error) } });
    }
    refreshAfterWrite();
  }

  return {
    runs: [],
    schedule: null,
    runsState: 'idle',
    runsError: null,
    diary: null,
    diaryState: 'idle',
    diaryError: null,
    preImages: [],
    preImagesState: 'idle',
    preImagesError: null,
    conflicts: [],
    conflictsState: 'idle',
    conflictsError: null,
    selectedRunId: null,
    run: null,
    runState: 'idle',
    runError: null,
    runErrorCode: null,
    starting: null,
    startError: null,
    startErrorCode: null,
    progress: null,
    notice: null,
    pending: null,
    actionError: null,

    async load() {
      await Promise.all([slice().loadRuns(), slice().loadDiary(), slice().loadPreImages(), slice().loadConflicts()]);
    },

    async loadRuns() {
      const request = ++latestRuns;
      if (slice().runsState !== 'ready') set({ runsState: 'loading' });
      try {
        const { runs, schedule } = await client.call('dream.runs', { limit: DREAM_RUNS_LIMIT });
        if (request !== latestRuns) return;
        set({ runs, schedule, runsState: 'ready', runsError: null });
        // The newest run's card opens by itself the first time there is one.
        const { selectedRunId } = slice();
        if (selectedRunId === null && runs.length > 0) void slice().selectRun(runs[0]!.id);
        if (!schedule.running && slice().starting === null) set({ progress: null });
      } catch (error) {
        if (request !== latestRuns) return;
        set({ runsState: 'error', runsError: errorMessage(error) });
      }
    },

    async loadDiary() {
      const request = ++latestDiary;
      if (slice().diaryState !== 'ready') set({ diaryState: 'loading' });
      try {
        const diary = await client.call('dream.diary', {});
        if (request !== latestDiary) return;
        set({ diary, diaryState: 'ready', diaryError: null });
      } catch (error) {
        if (request !== latestDiary) return;
        set({ diaryState: 'error', diaryError: errorMessage(error) });
      }
    },

    async loadConflicts() {
      const request = ++latestConflicts;
      if (slice().conflictsState !== 'ready') set({ conflictsState: 'loading' });
      try {
        const { conflicts } = await client.call('dream.conflicts', { status: 'open' });
        if (request !== latestConflicts) return;
        set({ conflicts, conflictsState: 'ready', conflictsError: null });
      } catch (error) {
        if (request !== latestConflicts) return;
        set({ conflictsState: 'error', conflictsError: errorMessage(error) });
      }
    },

    async resolveConflict(conflictId, decision) {
      const key = resolveKey(conflictId);
      set({ pending: key, actionError: null });
      try {
        await client.call('dream.resolve', { conflictId, decision });
        set({ conflicts: slice().conflicts.filter((c) => c.id !== conflictId) });
      } catch (error) {
        set({ actionError: { key, message: errorMessage(error), code: codeOf(error) } });
      } finally {
        set({ pending: null });
      }
      void slice().loadConflicts();
    },

    async loadPreImages() {
      const request = ++latestPreImages;
      if (slice().preImagesState !== 'ready') set({ preImagesState: 'loading' });
      try {
        const { preImages } = await client.call('dream.preimages', {});
        if (request !== latestPreImages) return;
        set({ preImages, preImagesState: 'ready', preImagesError: null });
      } catch (error) {
        if (request !== latestPreImages) return;
        set({ preImagesState: 'error', preImagesError: errorMessage(error) });
      }
    },

    async selectRun(runId) {
      const request = ++latestRun;
      const keep = slice().run?.id === runId;
      set({ selectedRunId: runId, runState: 'loading', runError: null, runErrorCode: null, ...(keep ? {} : { run: null }) });
      try {
        const run = await client.call('dream.get', { runId });
        if (request !== latestRun) return;
        set({ run, runState: 'ready' });
      } catch (error) {
        if (request !== latestRun) return;
        set({ runState: 'error', runError: errorMessage(error), runErrorCode: codeOf(error) });
      }
    },

    async runNow(options = {}) {
      if (slice().starting) return;
      const dryRun = options.dryRun ?? false;
      set({ starting: { dryRun }, startError: null, startErrorCode: null, notice: null, progress: null });
      try {
        const run = await client.call('dream.run', dryRun ? { dryRun: true } : {});
        showRun(run);
        set({
          starting: null,
          progress: null,
          notice: run.status === 'running' ? null : { runId: run.id, status: run.status, reason: run.reason, dryRun: run.dryRun },
        });
      } catch (error) {
        set({ starting: null, progress: null, startError: errorMessage(error), startErrorCode: codeOf(error) });
      }
      refreshAfterWrite();
    },

    async review(candidateKey, decision) {
      const { run, pending } = slice();
      if (!run || pending) return;
      const key = reviewKey(run.id, candidateKey);
      // Already waiting for its Undo: a second click must not do it twice.
      if (get().undo.held?.key === key) return;
      const perform = () => writeAction(key, () => client.call('dream.review', { runId: run.id, candidateKey, decision }));
      if (decision === 'approve') return perform();
      const candidate = run.candidates.find((c) => c.key === candidateKey);
      await get().undo.hold({ key, message: `Rejected ${quoteForToast(candidate?.text ?? candidateKey)}.` }, perform);
    },

    async rollback(runId) {
      if (slice().pending || get().undo.held?.key === rollbackKey(runId)) return;
      // A whole run is many lines in several files: ask first, then still offer Undo.
      if (!confirm(`Roll back dream run ${runId}? The lines it wrote are removed (or the files restored from their pre-images).`)) return;
      const key = rollbackKey(runId);
      await get().undo.hold({ key, message: 'Rolled back the dream run.' }, () => writeAction(key, () => client.call('dream.rollback', { runId })));
    },

    async restore(preImage) {
      if (slice().pending) return;
      if (!confirm(`Restore ${preImage.file} as it was before "${preImage.reason}"? Its current content is kept as a new pre-image first.`)) return;
      const key = restoreKey(preImage.id);
      set({ pending: key, actionError: null });
      try {
        await client.call('dream.restore', { preImageId: preImage.id });
        set({ pending: null });
      } catch (error) {
        set({ pending: null, actionError: { key, message: errorMessage(error), code: codeOf(error) } });
      }
      refreshAfterWrite();
      const { selectedRunId } = slice();
      if (selectedRunId) void slice().selectRun(selectedRunId);
    },

    onProgress(event) {
      set({ progress: { runId: event.runId, phase: event.phase, done: event.done, total: event.total } });
    },

    onComplete(event) {
      const { starting, selectedRunId } = slice();
      set({ progress: null });
      // A run started here reports through its own answer; others (schedule, CLI) get a notice here.
      if (!starting) set({ notice: { runId: event.runId, status: event.status, reason: event.reason, dryRun: null } });
      if (get().app.view !== 'dreams') return;
      void slice().loadRuns();
      void slice().loadDiary();
      void slice().loadPreImages();
      void slice().loadConflicts();
      if (selectedRunId === event.runId && !starting) void slice().selectRun(event.runId);
    },

    async openEvidence(candidate) {
      await get().provenance.open(evidenceRef(candidate));
    },

    dismissNotice() {
      set({ notice: null });
    },
  };
}
