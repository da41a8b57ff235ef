import { parseMarkdownEntries } from '../../workspace/markdownEntries.js';
import { entryFacts, type EntryFacts } from './entryFacts.js';

/** An active entry of MEMORY.md or USER.md, with the day its fact was written down when the file says so. */
export interface CuratedEntry {
  file: 'MEMORY.md' | 'USER.md';
  /** 0-based index of the entry's first line in its file. */
  lineIndex: number;
  line: string;
  body: string;
  /** YYYY-MM-DD: the note it came from (`Source: memory/2026-10-12.md#L3`), its promotion marker, or `observed`; null for the person's own undated lines. */
  day: string | null;
  facts: EntryFacts;
}

const RETIRED = /<!--\s*status:\s*(?:superseded|retired|expired)\s*-->/i;
const SOURCE_DAY = /Source:\s*\S*?(\d{4}-\d{2}-\d{2})[^\s#]*\.md#L/;
const MARKER_DAY = /(\d{4}-\d{2}-\d{2})[^:\s]*\.md:\d+:\d+/;

export function activeCuratedEntries(file: CuratedEntry['file'], text: string): CuratedEntry[] {
  const lines = text.split(/\r?\n/);
  const entries: CuratedEntry[] = [];
  for (const entry of parseMarkdownEntries(text)) {
    if (!entry.bullet || entry.annotations.status === 'superseded' || RETIRED.test(entry.raw)) continue;
    const line = lines[entry.startLine - 1] ?? '';
    const day = SOURCE_DAY.exec(entry.raw)?.[1] ?? entry.annotations.promotionKeys.map((k) => MARKER_DAY.exec(k)?.[1]).find(Boolean) ?? entry.annotations.observed ?? null;
    entries.push({ file, lineIndex: entry.startLine - 1, line, body: entry.body, day, facts: entryFacts(entry.body) });
  }
  return entries;
}
