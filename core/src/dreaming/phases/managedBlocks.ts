/**
 * OpenClaw's dreaming writes managed blocks into daily notes (`## Light Sleep` and `## REM
 * Sleep`, between `<!-- openclaw:dreaming:light:start -->` … `:end -->` markers): its own
 * candidates and reflections, not the person's notes, so they are never candidates here.
 */

const START = /<!--\s*openclaw:dreaming:(light|rem|deep):start\s*-->/;
const END = /<!--\s*openclaw:dreaming:(light|rem|deep):end\s*-->/;
const MANAGED_HEADING = /^##\s+(?:Light Sleep|REM Sleep)\s*$/i;
const ANY_HEADING = /^#{1,2}\s/;

const cache = new WeakMap<readonly string[], Uint8Array>();

/** Whether 1-based `line` of a note lies inside one of OpenClaw's managed blocks (or under its heading). */
export function isInManagedBlock(lines: readonly string[], line: number): boolean {
  let marks = cache.get(lines);
  if (!marks) {
    marks = markManaged(lines);
    cache.set(lines, marks);
  }
  return marks[line - 1] === 1;
}

function markManaged(lines: readonly string[]): Uint8Array {
  const marks = new Uint8Array(lines.length);
  let inMarkers = false;
  let underHeading = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (ANY_HEADING.test(line)) underHeading = MANAGED_HEADING.test(line);
    if (START.test(line)) inMarkers = true;
    if (inMarkers || underHeading) marks[i] = 1;
    // The block ends at its end marker: the person's lines after it, even with no heading of their own, are theirs.
    if (END.test(line)) inMarkers = underHeading = false;
  }
  return marks;
}
