import { resolveWikiLink, WIKI_LINK_PATTERN, type Backlink } from '../contract/index.js';
import type { IndexStore } from './indexStore.js';

/** The longest line shown for a backlink: the link itself stays in view, the rest is cut. */
const MAX_LINE_CHARS = 240;

/**
 * The notes that link to `path` with `[[…]]`, one entry per linking line, in path and line
 * order. Read from the index's chunks (only those holding `[[`), so no file is opened; a link
 * counts when it opens `path` by the window's own rule (`resolveWikiLink`).
 */
export function findBacklinks(store: IndexStore, path: string): Backlink[] {
  const paths = store.coverage().map((f) => f.path);
  const seen = new Set<string>();
  const links: Backlink[] = [];
  for (const chunk of store.chunksWithWikiLinks()) {
    if (chunk.path === path) continue;
    const lines = chunk.text.split('\n');
    lines.forEach((text, offset) => {
      // Overlapping chunks repeat lines; a very long line split in pieces keeps its last number.
      const line = Math.min(chunk.startLine + offset, chunk.endLine);
      const key = `${chunk.path}\n${line}`;
      if (seen.has(key) || !text.includes('[[')) return;
      const opensPath = [...text.matchAll(WIKI_LINK_PATTERN)].some((m) => resolveWikiLink(m[1]!, paths) === path);
      if (!opensPath) return;
      seen.add(key);
      links.push({ path: chunk.path, line, text: shorten(text.trim()) });
    });
  }
  return links.sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line);
}

function shorten(text: string): string {
  return text.length <= MAX_LINE_CHARS ? text : `${text.slice(0, MAX_LINE_CHARS - 1)}…`;
}
