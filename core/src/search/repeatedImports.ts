import type { SearchResult } from '../contract/index.js';
import { importedMemoryOf } from '../workspace/layout.js';

/**
 * One result per imported entry: the same Hermes entry kept in two profiles (or a file imported
 * from two tools) would otherwise fill the top of the list with copies. The best-ranked copy stays;
 * the others become its `alsoIn`. Entries are the same when their text is, apart from Hermes' `§`
 * separator lines (a chunk carries the one before its entry) and whitespace.
 */
export function collapseRepeatedImports(results: readonly SearchResult[], chunkTexts: (ids: number[]) => ReadonlyMap<number, string>): SearchResult[] {
  const imported = results.filter((r) => importedMemoryOf(r.path) !== null);
  if (imported.length < 2) return [...results];
  const texts = chunkTexts(imported.map(chunkIdOf));
  const kept = new Map<string, SearchResult>();
  const out: SearchResult[] = [];
  for (const r of results) {
    const text = importedMemoryOf(r.path) ? texts.get(chunkIdOf(r)) : undefined;
    const key = text === undefined ? '' : entryKey(text);
    const first = key === '' ? undefined : kept.get(key);
    if (!first) {
      const copy = { ...r };
      if (key !== '') kept.set(key, copy);
      out.push(copy);
      continue;
    }
    first.alsoIn = [...(first.alsoIn ?? []), { path: r.path, startLine: r.startLine, endLine: r.endLine }].slice(0, 50);
  }
  return out;
}

function chunkIdOf(r: SearchResult): number {
  return Number(r.id.slice('chunk:'.length));
}

function entryKey(text: string): string {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '§')
    .join('\n')
    .replace(/\s+/g, ' ')
    .trim();
}
