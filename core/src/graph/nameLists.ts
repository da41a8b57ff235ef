/**
 * Lists of names as notes write them: "Lantern (status page, since 18 Sep), Elixir and Zamu",
 * "Hope (Terraform, runbooks), Daniel (Cloud SQL, DMS)". A parenthesis belongs to its item.
 */

/** Separators of a list's items at the top level. */
const ITEM_SEPARATOR = /\s*,\s*(?:and\s+)?|\s+(?:and|&|\+)\s+/y;

/** Items between top-level separators, with their offsets (trimmed). */
export function splitTopLevel(text: string): Array<{ text: string; start: number }> {
  const items: Array<{ text: string; start: number }> = [];
  let depth = 0;
  let itemStart = 0;
  const push = (a: number, b: number) => {
    const raw = text.slice(a, b);
    const lead = raw.length - raw.trimStart().length;
    const trimmed = raw.trim();
    if (trimmed) items.push({ text: trimmed, start: a + lead });
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    if (depth > 0) continue;
    ITEM_SEPARATOR.lastIndex = i;
    const sep = ITEM_SEPARATOR.exec(text);
    if (sep && sep.index === i && sep[0].length > 0) {
      push(itemStart, i);
      itemStart = i + sep[0].length;
      i = itemStart - 1;
    }
  }
  push(itemStart, text.length);
  return items;
}

/**
 * Where a list that starts `text` ends: the first character outside parentheses for which `endsHere(c, next)`
 * says so, or the end of `text`. Parentheses inside a list hold its items' details, never its end.
 */
export function listEnd(text: string, endsHere: (c: string, next: string) => boolean): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && endsHere(c, text[i + 1] ?? '')) return i;
  }
  return text.length;
}

