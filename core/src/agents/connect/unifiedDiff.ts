/**
 * A unified diff of a configuration file before and after Reverie's edit, for `--dry-run` and
 * the window. The common head and tail are cut first (`~/.claude.json` keeps history and can be
 * large); the rest is compared line by line (longest common subsequence) when small enough.
 */
const MAX_CELLS = 4_000_000;

export function unifiedDiff(file: string, before: string | null, after: string, context = 3): string {
  if (before === after) return '';
  const a = before === null ? [] : splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const ops: Array<[' ' | '-' | '+', string]> = [
    ...a.slice(0, head).map((l): [' ', string] => [' ', l]),
    ...middle(a.slice(head, a.length - tail), b.slice(head, b.length - tail)),
    ...a.slice(a.length - tail).map((l): [' ', string] => [' ', l]),
  ];
  const lines = [`--- ${before === null ? '/dev/null' : file}`, `+++ ${file}`];
  // Hunks: changed lines with `context` unchanged ones around them.
  const changed = ops.map((op, i) => (op[0] === ' ' ? -1 : i)).filter((i) => i !== -1);
  let i = 0;
  while (i < changed.length) {
    const start = Math.max(0, changed[i]! - context);
    let end = Math.min(ops.length, changed[i]! + context + 1);
    while (i + 1 < changed.length && changed[i + 1]! - context <= end) end = Math.min(ops.length, changed[++i]! + context + 1);
    i++;
    const aStart = ops.slice(0, start).filter((o) => o[0] !== '+').length;
    const bStart = ops.slice(0, start).filter((o) => o[0] !== '-').length;
    const hunk = ops.slice(start, end);
    const aLen = hunk.filter((o) => o[0] !== '+').length;
    const bLen = hunk.filter((o) => o[0] !== '-').length;
    lines.push(`@@ -${aLen === 0 ? aStart : aStart + 1},${aLen} +${bLen === 0 ? bStart : bStart + 1},${bLen} @@`, ...hunk.map(([op, l]) => `${op}${l}`));
  }
  return `${lines.join('\n')}\n`;
}

function middle(a: string[], b: string[]): Array<[' ' | '-' | '+', string]> {
  if ((a.length + 1) * (b.length + 1) > MAX_CELLS) return [...a.map((l): ['-', string] => ['-', l]), ...b.map((l): ['+', string] => ['+', l])];
  const w = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * w);
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lcs[i * w + j] = a[i] === b[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
  const out: Array<[' ' | '-' | '+', string]> = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push([' ', a[i++]!]);
      j++;
    }
    else if (lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!) out.push(['-', a[i++]!]);
    else out.push(['+', b[j++]!]);
  }
  while (i < a.length) out.push(['-', a[i++]!]);
  while (j < b.length) out.push(['+', b[j++]!]);
  return out;
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
