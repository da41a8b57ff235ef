import { errorMessage } from '../client/memoryClient.js';
import type { SliceContext } from './types.js';

/** How long an action waits for Undo before it is done. */
export const UNDO_WINDOW_MS = 6_000;

/**
 * An action the person asked for, held back for a few seconds so Undo can drop it. Reject,
 * Rollback and Forget have no inverse operation in the engine (a rejected promotion cannot be
 * un-rejected, a forgotten path stays out of the index), so Undo works by not doing them yet.
 */
export interface HeldAction {
  /** Which thing it acts on (e.g. `review:<runId>:<candidateKey>`), so the view can mark it. */
  key: string;
  /** What will happen, as a sentence ("Rejected “…”."). */
  message: string;
}

export interface UndoSlice {
  held: HeldAction | null;
  /** The last held action that failed when it was finally done. */
  error: string | null;
  /**
   * Holds `perform` back for UNDO_WINDOW_MS, then does it; Undo drops it. A second action does the
   * held one first (one toast at a time, and nothing is ever silently dropped).
   */
  hold(action: HeldAction, perform: () => Promise<void>, onUndo?: () => void): Promise<void>;
  /** Drops the held action: nothing was done. */
  undo(): void;
  /** Does the held action now (the toast's ×, leaving the page). */
  performNow(): Promise<void>;
  dismissError(): void;
}

export function createUndoSlice({ set, get }: SliceContext<'undo'>): UndoSlice {
  let perform: (() => Promise<void>) | null = null;
  let undone: (() => void) | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const slice = (): UndoSlice => get().undo;

  function release(): (() => Promise<void>) | null {
    if (timer) clearTimeout(timer);
    timer = null;
    const action = perform;
    perform = null;
    undone = null;
    set({ held: null });
    return action;
  }

  return {
    held: null,
    error: null,

    async hold(action, next, onUndo) {
      await slice().performNow();
      perform = next;
      undone = onUndo ?? null;
      set({ held: action, error: null });
      timer = setTimeout(() => void slice().performNow(), UNDO_WINDOW_MS);
    },

    undo() {
      const onUndo = undone;
      if (release()) onUndo?.();
    },

    async performNow() {
      const action = release();
      if (!action) return;
      try {
        await action();
      } catch (error) {
        // The slices report their own failures beside what they acted on; this catches the rest.
        set({ error: errorMessage(error) });
      }
    },

    dismissError() {
      set({ error: null });
    },
  };
}

/** A short quotation of `text` for a toast: one line, at most 60 characters. */
export function quoteForToast(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return `“${line.length > 60 ? `${line.slice(0, 59).trimEnd()}…` : line}”`;
}
