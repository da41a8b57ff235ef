/** The parser's shared state: the lines, which ones a block already took, and the notes so far. */
export interface DiaryScan {
  /** 0-based; line N of the file is `lines[N - 1]`. */
  lines: string[];
  claimed: boolean[];
  problems: string[];
}

export function claim(scan: DiaryScan, from: number, to: number): void {
  for (let i = from; i <= to; i++) scan.claimed[i] = true;
}

/** First index ≥ `from` where `stops` holds, or the line count. */
export function findStop(scan: DiaryScan, from: number, stops: (line: string, index: number) => boolean): number {
  for (let i = from; i < scan.lines.length; i++) if (stops(scan.lines[i]!, i)) return i;
  return scan.lines.length;
}

/** Moves `to` back over trailing blank lines (never before `from`). */
export function trimBlankTail(scan: DiaryScan, from: number, to: number): number {
  let end = to;
  while (end > from && (scan.lines[end] ?? '').trim() === '') end--;
  return end;
}
