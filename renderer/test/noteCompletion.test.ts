import { CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { noteCompletionSource, noteNames } from '../src/views/memory/editor/noteCompletion.js';
import { resolveWikiLink } from '../src/views/memory/remarkWikiLinks.js';

const PATHS = ['MEMORY.md', 'memory/2026-03-09.md', 'memory/projects/tax.md', 'memory/archive/tax.md', 'memory/Lisbon trip.md'];

function complete(text: string): CompletionResult | null {
  const state = EditorState.create({ doc: text, selection: { anchor: text.length } });
  const source = noteCompletionSource(() => noteNames(PATHS));
  return source(new CompletionContext(state, state.selection.main.head, false)) as CompletionResult | null;
}

describe('[[ completion of note names in the editor', () => {
  it('offers the shortest name that opens each note: the file name, or the path when two notes share it', () => {
    const names = noteNames(PATHS);
    expect(names.map((n) => n.name)).toEqual(['MEMORY', '2026-03-09', 'memory/projects/tax', 'memory/archive/tax', 'Lisbon trip']);
    // Every offered name opens the note it stands for.
    for (const { name, path } of names) expect(resolveWikiLink(name, PATHS)).toBe(path);
  });

  it('answers only inside an unclosed [[ on the current line, from just after the brackets', () => {
    expect(complete('See [[Lis')?.from).toBe(6);
    expect(complete('See [[')?.options).toHaveLength(PATHS.length);
    expect(complete('See [Lis')).toBeNull();
    expect(complete('See [[Lisbon trip]] and')).toBeNull();
    expect(complete('See [[Lisbon trip|the')).toBeNull();
    expect(complete('[[one\nLis')).toBeNull();
  });
});
