import { classifyEntry } from '../../workspace/entryKind.js';
import { joinLines, splitLines } from './lines.js';

const RETIRED = /<!--\s*status:\s*(?:superseded|retired|expired)\s*-->/i;
const BULLET = /^\s*[-*+]\s/;
const MARKER = /^\s*<!--\s*openclaw-memory-(?:promotion|lineage):.*-->\s*$/;
const SOURCE_DAY = /Source:\s*\S*?(\d{4}-\d{2}-\d{2})[^\s#]*\.md#L/;

/**
 * When MEMORY.md has no room, entries that no longer hold go first: those a newer note
 * superseded and time-bounded facts whose end has passed (with the markers right above them).
 * Current entries, the person's or dreaming's, are never removed to make room.
 */
export function retireForBudget(text: string, today: string): { text: string; removed: string[] } {
  const split = splitLines(text);
  const keep: string[] = [];
  const removed: string[] = [];
  for (const line of split.lines) {
    if (BULLET.test(line) && isRetired(line, today)) {
      // Take the entry's own promotion and lineage markers with it, in file order right before it (a rollback puts them back there).
      const markers: string[] = [];
      while (keep.length > 0 && MARKER.test(keep[keep.length - 1]!)) markers.unshift(keep.pop()!);
      removed.push(...markers, line);
      continue;
    }
    keep.push(line);
  }
  if (removed.length === 0) return { text, removed };
  return { text: joinLines({ ...split, lines: keep }), removed };
}

function isRetired(line: string, today: string): boolean {
  if (RETIRED.test(line)) return true;
  const kind = classifyEntry(line, SOURCE_DAY.exec(line)?.[1] ?? null);
  return kind.kind === 'time-bounded' && kind.validUntil !== null && kind.validUntil < today;
}
