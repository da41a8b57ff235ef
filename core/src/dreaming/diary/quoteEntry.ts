const MAX_QUOTE_CHARS = 120;

/** An entry as the diary quotes it: one line, no trailing period, at most 120 characters. */
export function quoteEntry(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim().replace(/[.\s]+$/, '');
  return `“${flat.length > MAX_QUOTE_CHARS ? `${flat.slice(0, MAX_QUOTE_CHARS - 1).trimEnd()}…` : flat}”`;
}
