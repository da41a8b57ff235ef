/**
 * Matching a line of MEMORY.md/USER.md back to a labelled entry (the rule the README states):
 *  1. a source marker on the line or on the comment line right above it (`source=path:3-4`,
 *     `openclaw-memory-promotion:memory:path:3:4`, `Source: path#L3-L4`) names the note and
 *     lines; the entry is the labelled one found on those lines of the fold's note;
 *  2. otherwise the normalised line contains a label's normalised substring (longest wins);
 *  3. otherwise the line is unmatched (it counts as a wrong promotion).
 */
import type { EntryLabel, Fold } from './folds.js';

export interface WrittenLine {
  file: 'MEMORY.md' | 'USER.md';
  text: string;
  /** Marked superseded, retired or expired in place (no longer read as true). */
  retired: boolean;
  label: EntryLabel | null;
  matchedBy: 'source' | 'text' | 'none';
}

const SOURCE_PATTERNS = [
  /source=([^\s\]]+?):(\d+)-(\d+)/g,
  /openclaw-memory-promotion:(?:memory:)?([^\s]+?):(\d+):(\d+)/g,
  /Source:\s*([^\s#,]+)#L(\d+)(?:-L(\d+))?/g,
];
const RETIRED = /status:\s*(superseded|retired|expired)\b/i;

/** Lowercase letters and digits in NFKC form, comments and trailing `[score=…]` metadata removed. */
export function normalise(text: string): string {
  return text
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/\[score=[^\]]*\]/g, ' ')
    .replace(/^\s*[-*]\s+(\[[ xX]\]\s+)?/, '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function sourcesOf(text: string): Array<{ path: string; start: number; end: number }> {
  const found: Array<{ path: string; start: number; end: number }> = [];
  for (const pattern of SOURCE_PATTERNS) {
    for (const m of text.matchAll(pattern)) {
      const start = Number(m[2]);
      found.push({ path: m[1]!, start, end: m[3] === undefined ? start : Number(m[3]) });
    }
  }
  return found;
}

export class LineMatcher {
  private readonly byNormalised: Array<{ key: string; label: EntryLabel }>;

  constructor(private readonly fold: Fold) {
    this.byNormalised = fold.labels
      .map((label) => ({ key: normalise(label.match), label }))
      .filter((l) => l.key.length > 0)
      .sort((a, b) => b.key.length - a.key.length);
  }

  /** The labelled entry a written line stands for, and how it was found. */
  match(line: string, lineAbove: string): Pick<WrittenLine, 'label' | 'matchedBy'> {
    const sources = sourcesOf(line);
    if (sources.length === 0 && /^\s*<!--/.test(lineAbove)) sources.push(...sourcesOf(lineAbove));
    for (const source of sources) {
      const note = this.fold.files.get(source.path.replace(/^\.?\//, ''));
      if (note === undefined) continue;
      const lines = note.split('\n').slice(source.start - 1, source.end);
      const label = this.fold.labels.find((l) => l.file === source.path.replace(/^\.?\//, '') && lines.some((text) => text.includes(l.match)));
      if (label) return { label, matchedBy: 'source' };
    }
    const wanted = normalise(line);
    const hit = this.byNormalised.find((l) => wanted.includes(l.key));
    return hit ? { label: hit.label, matchedBy: 'text' } : { label: null, matchedBy: 'none' };
  }
}

function isEntryLine(line: string): boolean {
  return /^\s*[-*]\s+\S/.test(line);
}

/**
 * The entry lines a run of sweeps added to MEMORY.md/USER.md: lines of the final file that
 * were not there at the start (a start line changed in place, such as a status flip, is not new).
 */
export function writtenLines(fold: Fold, file: WrittenLine['file'], start: string, final: string): WrittenLine[] {
  const matcher = new LineMatcher(fold);
  const startNormalised = new Map<string, number>();
  for (const line of start.split('\n')) if (isEntryLine(line)) startNormalised.set(normalise(line), (startNormalised.get(normalise(line)) ?? 0) + 1);
  const out: WrittenLine[] = [];
  const lines = final.split('\n');
  for (const [i, line] of lines.entries()) {
    if (!isEntryLine(line)) continue;
    const key = normalise(line);
    const left = startNormalised.get(key) ?? 0;
    if (left > 0) {
      startNormalised.set(key, left - 1);
      continue;
    }
    out.push({ file, text: line, retired: RETIRED.test(line), ...matcher.match(line, lines[i - 1] ?? '') });
  }
  return out;
}

/** Entry lines of a final file that still hold a labelled starting entry, and whether each is retired. */
export function startEntryStates(fold: Fold, finals: Readonly<Record<string, string>>): Map<string, { active: boolean }> {
  const states = new Map<string, { active: boolean }>();
  for (const label of fold.labels.filter((l) => l.verdict === 'existing')) {
    const line = (finals[label.file] ?? '').split('\n').find((l) => l.includes(label.match));
    if (line !== undefined) states.set(label.id, { active: !RETIRED.test(line) });
  }
  return states;
}

/** Lines of a file carrying score or signal text (`score=`, `recalls=`, `signals=`, `avg=`). */
export function signalTextLines(text: string): number {
  return text.split('\n').filter((l) => /\b(score|recalls|signals|avg)=/.test(l)).length;
}
