/** One line of a two-way diff: in both texts, only on disk, or only in the person's edit. */
export interface DiffLine {
  kind: 'same' | 'disk' | 'yours';
  text: string;
}

/** Above this many differing lines on either side (after the common start and end) the quadratic table would cost too much memory. */
export const MAX_DIFF_LINES = 3000;

/**
 * Lines of `disk` and `yours` in order, by longest common subsequence; null when the part that
 * differs is too long to compare here (a long note with one changed stretch still compares).
 */
export function diffLines(disk: string, yours: string): DiffLine[] | null {
  const a = disk.split('\n');
  const b = yours.split('\n');
  // Common lines at both ends are cheap to strip and keep the table small.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  if (n > MAX_DIFF_LINES || m > MAX_DIFF_LINES) return null;
  const table = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * (m + 1) + j] = a[start + i] === b[start + j] ? table[(i + 1) * (m + 1) + j + 1]! + 1 : Math.max(table[(i + 1) * (m + 1) + j]!, table[i * (m + 1) + j + 1]!);
    }
  }
  const out: DiffLine[] = a.slice(0, start).map((text) => ({ kind: 'same', text }));
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[start + i] === b[start + j]) {
      out.push({ kind: 'same', text: a[start + i]! });
      i++;
      j++;
    } else if (j < m && (i === n || table[i * (m + 1) + j + 1]! >= table[(i + 1) * (m + 1) + j]!)) {
      out.push({ kind: 'yours', text: b[start + j]! });
      j++;
    } else {
      out.push({ kind: 'disk', text: a[start + i]! });
      i++;
    }
  }
  for (let k = endA; k < a.length; k++) out.push({ kind: 'same', text: a[k]! });
  return out;
}

/** The changed lines with `context` unchanged lines around each change; gaps become one marker. */
export function withContext(lines: DiffLine[], context = 2): Array<DiffLine | { kind: 'gap'; count: number }> {
  const near = lines.map((_, index) => lines.slice(Math.max(0, index - context), index + context + 1).some((l) => l.kind !== 'same'));
  const out: Array<DiffLine | { kind: 'gap'; count: number }> = [];
  let skipped = 0;
  lines.forEach((line, index) => {
    if (near[index]) {
      if (skipped > 0) out.push({ kind: 'gap', count: skipped });
      skipped = 0;
      out.push(line);
    } else skipped++;
  });
  if (skipped > 0) out.push({ kind: 'gap', count: skipped });
  return out;
}
