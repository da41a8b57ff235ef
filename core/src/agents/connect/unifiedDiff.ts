/**
 * A unified diff of a configuration file before and after Reverie's edit, for `--dry-run` and
 * the window. Edits touch a few places of a file that may be large (`~/.claude.json` keeps
 * history), so the common head and tail are cut first and the rest is one hunk.
 */
export function unifiedDiff(file: string, before: string | null, after: string, context = 3): string {
  if (before === after) return '';
  const a = before === null ? [] : splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const from = Math.max(0, head - context);
  const aEnd = Math.min(a.length, a.length - tail + context);
  const bEnd = Math.min(b.length, b.length - tail + context);
  const lines = [
    `--- ${before === null ? '/dev/null' : file}`,
    `+++ ${file}`,
    `@@ -${a.length === 0 ? 0 : from + 1},${aEnd - from} +${from + 1},${bEnd - from} @@`,
    ...a.slice(from, head).map((l) => ` ${l}`),
    ...a.slice(head, a.length - tail).map((l) => `-${l}`),
    ...b.slice(head, b.length - tail).map((l) => `+${l}`),
    ...b.slice(b.length - tail, bEnd).map((l) => ` ${l}`),
  ];
  return `${lines.join('\n')}\n`;
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
