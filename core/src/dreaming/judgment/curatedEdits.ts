import { joinLines, splitLines } from '../curated/lines.js';
import type { TextEdit } from '../types.js';
import type { CuratedEntry } from './curatedEntries.js';

const ACTIVE_STATUS = /(<!--\s*status:\s*)active(\s*-->)/;
const SOURCE = /(Source:\s*\S+#L\d+(?:-L\d+)?(?:,\s*\S+#L\d+(?:-L\d+)?)*)/;

/**
 * In-place changes a sweep makes to existing entries: a superseded entry gets
 * `<!-- status: superseded -->` (kept, so the history reads in order and rollback can flip it
 * back), and a restated fact's source list grows by the note that restated it.
 */
export function editCuratedEntries(text: string, retire: readonly CuratedEntry[], reinforce: ReadonlyArray<{ entry: CuratedEntry; source: string }>): TextEdit {
  const split = splitLines(text);
  const lines = [...split.lines];
  const changed: TextEdit['changed'] = [];
  const change = (index: number, after: string) => {
    const before = lines[index]!;
    if (before === after) return;
    lines[index] = after;
    changed.push({ before, after });
  };
  for (const entry of retire) {
    const line = lines[entry.lineIndex];
    if (line === undefined) continue;
    change(entry.lineIndex, ACTIVE_STATUS.test(line) ? line.replace(ACTIVE_STATUS, '$1superseded$2') : `${line} <!-- status: superseded -->`);
  }
  for (const { entry, source } of reinforce) {
    const line = lines[entry.lineIndex];
    // Only lines dreaming wrote carry a source list; the person's own lines are left as they wrote them.
    if (line === undefined || !SOURCE.test(line) || line.includes(source)) continue;
    change(entry.lineIndex, line.replace(SOURCE, `$1, ${source}`));
  }
  if (changed.length === 0) return { text, added: [], changed: [] };
  return { text: joinLines({ ...split, lines }), added: [], changed };
}
