/** The report: one row per family, like SQLite's test reports, and a closing "N failures". */
import type { FamilyResult } from './harness.js';

export interface Row extends FamilyResult {
  family: string;
  seconds: number;
}

export function printTable(rows: Row[], write: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): number {
  const cells = rows.map((r) => [
    r.family,
    String(r.trials),
    String(r.failures.length),
    Object.entries(r.figures)
      .map(([k, v]) => `${k} ${v}`)
      .join(', '),
    `${r.seconds.toFixed(1)} s`,
  ]);
  const header = ['family', 'trials', 'failures', 'figures', 'elapsed'];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => v.padEnd(widths[i]!)).join(' | ');
  write(line(header));
  write(widths.map((w) => '-'.repeat(w)).join('-+-'));
  for (const c of cells) write(line(c));
  const total = rows.reduce((n, r) => n + r.failures.length, 0);
  for (const r of rows) for (const f of r.failures.slice(0, 8)) write(`  ${r.family}: ${f}`);
  write(`${total} failures`);
  return total;
}
