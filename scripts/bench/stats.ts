/** Small numeric helpers for the benchmark report. */

/** Nearest-rank percentile (p in 0..100) of unsorted values; NaN for an empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

export function max(values: readonly number[]): number {
  let m = Number.NEGATIVE_INFINITY;
  for (const v of values) if (v > m) m = v;
  return values.length === 0 ? Number.NaN : m;
}

/** Rounds for the JSON report (keeps integers as they are). */
export function round(value: number, digits = 2): number {
  if (!Number.isFinite(value)) return value;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export interface LatencySummary {
  n: number;
  p50_ms: number;
  p95_ms: number;
  max_ms: number;
  mean_ms: number;
}

export function summarizeLatency(values: readonly number[]): LatencySummary {
  return {
    n: values.length,
    p50_ms: round(percentile(values, 50), 3),
    p95_ms: round(percentile(values, 95), 3),
    max_ms: round(max(values), 3),
    mean_ms: round(mean(values), 3),
  };
}

/** Formats rows of cells as a fixed-width text table. */
export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function log(message: string): void {
  process.stderr.write(`${message}\n`);
}
