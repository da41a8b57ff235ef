import type { OperationOutput } from '../../contract/index.js';

/** `reverie get` without --json: a header line, then the lines numbered; loads nothing heavy (the thin path prints it too). */
export function formatMemoryLines(got: OperationOutput<'memory.get'>): string {
  const last = got.from + got.lines - 1;
  const header = got.lines === 0 ? `${got.path}: no lines from ${got.from} (${got.totalLines} in all)` : `${got.path}:${got.from}-${last} of ${got.totalLines}  (${got.origin})`;
  const width = String(Math.max(last, 1)).length;
  const body = got.lines === 0 ? [] : got.text.split('\n').slice(0, got.lines).map((line, i) => `${String(got.from + i).padStart(width)}  ${line}`);
  return [header, ...body].join('\n') + '\n';
}
