/** Values of a small YAML front matter: scalars and lists of scalars, as the memory formats use. */
export type FrontMatterFields = Record<string, string | string[]>;

const KEY_LINE = /^([A-Za-z_][\w-]*):(?:\s+(.*))?$/;

/** True when a line closes or opens a front-matter block. */
export function isFenceLine(line: string): boolean {
  return line.trimEnd() === '---';
}

/**
 * Parses `key: value`, `key: [a, b]` and `key:` followed by `  - item` lines. Not a YAML
 * parser: anything else is ignored rather than guessed at.
 */
export function parseFrontMatterFields(lines: readonly string[]): FrontMatterFields {
  const fields: FrontMatterFields = {};
  let listKey: string | null = null;
  for (const raw of lines) {
    const line = raw.replace(/\r$/, '');
    const item = /^\s+-\s+(.*)$/.exec(line) ?? /^-\s+(.*)$/.exec(line);
    if (item && listKey) {
      (fields[listKey] as string[]).push(unquote(item[1]!.trim()));
      continue;
    }
    const match = KEY_LINE.exec(line);
    if (!match) {
      listKey = null;
      continue;
    }
    const key = match[1]!;
    const value = (match[2] ?? '').trim();
    if (value === '') {
      fields[key] = [];
      listKey = key;
    } else if (value.startsWith('[') && value.endsWith(']')) {
      fields[key] = splitList(value.slice(1, -1));
      listKey = null;
    } else {
      fields[key] = unquote(value);
      listKey = null;
    }
  }
  return fields;
}

/** Lines that look like front-matter keys (`name: …`) or their list items. */
export function looksLikeFrontMatter(lines: readonly string[]): boolean {
  const meaningful = lines.filter((l) => l.trim() !== '');
  return meaningful.length > 0 && KEY_LINE.test(meaningful[0]!.replace(/\r$/, '')) && meaningful.every((l) => KEY_LINE.test(l.replace(/\r$/, '')) || /^\s*-\s/.test(l) || /^\s+\S/.test(l));
}

/** `goose, migration, "a, b"` → its items; used for `keywords`. */
export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((v) => unquote(v.trim()))
    .filter((v) => v !== '');
}

export function fieldText(fields: FrontMatterFields, key: string): string | null {
  const value = fields[key];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

function unquote(value: string): string {
  if (value.length >= 2 && ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'")))) return value.slice(1, -1);
  return value;
}
