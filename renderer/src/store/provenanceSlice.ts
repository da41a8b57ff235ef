import type { ForgetReport, ProvenanceChain } from '../../../core/src/contract/index.js';
import type { ClientErrorCode } from '../client/clientError.js';
import { MemoryClientError, errorMessage } from '../client/memoryClient.js';
import type { LineRange } from './memorySlice.js';
import type { SliceContext } from './types.js';

/** What "forget" acts on for a chain: the whole session for transcript text, else the file. */
export type ForgetTarget = { kind: 'session'; key: string } | { kind: 'path'; key: string };

export interface ForgetFlow {
  target: ForgetTarget;
  /** previewing: dry run in flight · preview: dry run shown, waiting for confirmation · held: confirmed, Undo still possible · forgetting · done · error. */
  state: 'previewing' | 'preview' | 'held' | 'forgetting' | 'done' | 'error';
  /** The dry run's report (what would be removed). */
  preview: ForgetReport | null;
  /** The real run's report (what was removed). */
  report: ForgetReport | null;
  error: string | null;
}

export interface ProvenanceSlice {
  isOpen: boolean;
  /** The reference asked about: `chunk:<n>`, `path:line` or `path:start-end`. */
  ref: string | null;
  state: 'idle' | 'loading' | 'ready' | 'error';
  chain: ProvenanceChain | null;
  error: string | null;
  errorCode: ClientErrorCode | null;
  /** The lines a search result cited, when opened from one (a chunk may span more lines than its passage). */
  cited: LineRange | null;
  /** Changes on every open, so the panel moves focus into itself again. */
  openRequest: number;
  forget: ForgetFlow | null;

  /** Opens the inspector for a search result id or a `path:line` reference and loads its chain. */
  open(ref: string, options?: { cited?: LineRange }): Promise<void>;
  close(): void;
  retry(): Promise<void>;
  /** Opens the chain's file in the Memory view at its lines (workspace files only). */
  openInMemory(): Promise<void>;
  /** Step 1 of forgetting: a dry run that reports what would be removed. */
  previewForget(): Promise<void>;
  /** Step 2: forget for real (only after a preview), then refresh what shows the index. */
  confirmForget(): Promise<void>;
  cancelForget(): void;
}

/** Transcript text is forgotten by session; workspace text by file (the Markdown itself stays). */
export function forgetTargetOf(chain: ProvenanceChain): ForgetTarget {
  if (chain.transcript) return { kind: 'session', key: chain.transcript.sessionId };
  return { kind: 'path', key: chain.path };
}

/** Workspace files (memory, dreams) can be opened in the Memory view; transcripts cannot. */
export function canOpenInMemory(chain: Pick<ProvenanceChain, 'source'>): boolean {
  return chain.source !== 'sessions';
}

export function createProvenanceSlice({ set, get, client }: SliceContext<'provenance'>): ProvenanceSlice {
  // Only the newest lookup may fill the panel, and a forget answer only lands on the chain it was asked for.
  let latestLookup = 0;
  let latestForget = 0;

  const slice = (): ProvenanceSlice => get().provenance;

  async function load(ref: string): Promise<void> {
    const request = ++latestLookup;
    latestForget++;
    set({ state: 'loading', error: null, errorCode: null, chain: null, forget: null });
    try {
      const chain = await client.call('provenance.get', { ref });
      if (request !== latestLookup) return;
      set({ state: 'ready', chain });
    } catch (error) {
      if (request !== latestLookup) return;
      set({ state: 'error', error: errorMessage(error), errorCode: error instanceof MemoryClientError ? error.code : null });
    }
  }

  async function runForget(target: ForgetTarget, dryRun: boolean): Promise<ForgetReport> {
    return client.call('forget', target.kind === 'session' ? { session: target.key, dryRun } : { path: target.key, dryRun });
  }

  async function performForget(forget: ForgetFlow): Promise<void> {
    // A newer lookup or a closed panel does not see this answer; the forget happens all the same.
    const isShown = slice().forget?.target === forget.target && slice().forget?.state === 'held';
    const request = isShown ? latestForget : ++latestForget;
    if (isShown) set({ forget: { ...forget, state: 'forgetting', error: null } });
    try {
      const report = await runForget(forget.target, false);
      if (request === latestForget) set({ forget: { ...forget, state: 'done', report, error: null } });
    } catch (error) {
      if (request === latestForget) set({ forget: { ...forget, state: 'preview', error: errorMessage(error) } });
      // Nobody is looking at the panel any more: the undo notice reports it instead.
      else throw error;
      return;
    }
    // The forgotten text must disappear from what is on screen (also when the panel was closed meanwhile).
    const state = get();
    state.search.rerun();
    void state.memory.loadFiles();
    if (state.app.view === 'status' || state.app.view === 'settings') void state.status.refresh();
  }

  return {
    isOpen: false,
    ref: null,
    state: 'idle',
    chain: null,
    error: null,
    errorCode: null,
    cited: null,
    openRequest: 0,
    forget: null,

    async open(ref, options = {}) {
      set((p) => ({ isOpen: true, ref, cited: options.cited ?? null, openRequest: p.openRequest + 1 }));
      await load(ref);
    },

    close() {
      latestLookup++;
      latestForget++;
      set({ isOpen: false, ref: null, cited: null, state: 'idle', chain: null, error: null, errorCode: null, forget: null });
    },

    async retry() {
      const { ref } = slice();
      if (ref) await load(ref);
    },

    async openInMemory() {
      const { chain } = slice();
      if (!chain || !canOpenInMemory(chain)) return;
      const state = get();
      if (!state.memory.confirmDiscardEdits()) return;
      state.provenance.close();
      state.app.setView('memory');
      await state.memory.openFile(chain.path, { highlight: { startLine: chain.startLine, endLine: chain.endLine } });
    },

    async previewForget() {
      const { chain, forget } = slice();
      if (!chain || forget?.state === 'previewing' || forget?.state === 'forgetting') return;
      const target = forgetTargetOf(chain);
      const request = ++latestForget;
      set({ forget: { target, state: 'previewing', preview: null, report: null, error: null } });
      try {
        const preview = await runForget(target, true);
        if (request !== latestForget) return;
        set({ forget: { target, state: 'preview', preview, report: null, error: null } });
      } catch (error) {
        if (request !== latestForget) return;
        set({ forget: { target, state: 'error', preview: null, report: null, error: errorMessage(error) } });
      }
    },

    async confirmForget() {
      const { forget } = slice();
      // Never without a dry run the person has seen.
      if (!forget || forget.state !== 'preview') return;
      const held = ++latestForget;
      set({ forget: { ...forget, state: 'held', error: null } });
      const message = forget.target.kind === 'session' ? 'Forgot the session: it no longer shows in search.' : `Stopped indexing ${forget.target.key}.`;
      await get().undo.hold(
        { key: `forget:${forget.target.kind}:${forget.target.key}`, message },
        () => performForget(forget),
        () => {
          if (held === latestForget) set({ forget: { ...forget, state: 'preview', error: null } });
        },
      );
    },

    cancelForget() {
      const { forget } = slice();
      if (forget?.state === 'forgetting') return;
      // Closing the preview while the forget waits for Undo does not undo it: only Undo does.
      latestForget++;
      set({ forget: null });
    },
  };
}
