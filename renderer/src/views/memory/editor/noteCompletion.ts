import type { Completion, CompletionContext, CompletionResult, CompletionSource } from '@codemirror/autocomplete';

/** What `[[` offers: the shortest name that still opens the note (see resolveWikiLink), and its path. */
export interface NoteName {
  name: string;
  path: string;
}

/**
 * Names to complete after `[[`: a note's file name without `.md` when no other note has it,
 * else its path without `.md` (a bare name would open the first of the two).
 */
export function noteNames(paths: readonly string[]): NoteName[] {
  const baseCount = new Map<string, number>();
  const baseOf = (path: string): string => (path.split('/').at(-1) ?? path).replace(/\.md$/i, '');
  for (const path of paths) {
    const key = baseOf(path).toLowerCase();
    baseCount.set(key, (baseCount.get(key) ?? 0) + 1);
  }
  return paths
    .filter((path) => !path.startsWith('/'))
    .map((path) => ({ name: baseCount.get(baseOf(path).toLowerCase()) === 1 ? baseOf(path) : path.replace(/\.md$/i, ''), path }));
}

// The name typed so far inside an unclosed `[[` on this line (no `]`, `|` or `[` yet).
const OPEN_LINK = /\[\[[^[\]|\n]*$/;

/** A CodeMirror completion source for `[[note name`; `names()` is read on each request (the tree changes). */
export function noteCompletionSource(names: () => readonly NoteName[]): CompletionSource {
  return (context: CompletionContext): CompletionResult | null => {
    const typed = context.matchBefore(OPEN_LINK);
    if (!typed) return null;
    const from = typed.from + 2;
    const after = context.state.sliceDoc(context.pos, context.pos + 2);
    const closed = after === ']]';
    const options: Completion[] = names().map(({ name, path }) => ({
      label: name,
      detail: path,
      type: 'text',
      // Close the link (or step over the `]]` already there), so typing goes on after it.
      apply: (view, _completion, from, to) => {
        const insert = closed ? name : `${name}]]`;
        view.dispatch({ changes: { from, to, insert }, selection: { anchor: from + name.length + 2 }, userEvent: 'input.complete' });
      },
    }));
    return { from, options, validFor: /^[^[\]|\n]*$/ };
  };
}
