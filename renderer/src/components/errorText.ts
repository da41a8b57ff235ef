/** An error's text split for people: a short summary to show, and the full text behind "Details". */
export interface ReadableError {
  summary: string;
  /** The whole original text, when the summary leaves something out; otherwise null. */
  details: string | null;
}

/** Longer summaries are cut at a word and end in "…". */
export const SUMMARY_LIMIT = 200;

/** One issue of the engine's validation message: `settings.set: field "patch.maxFileSizeMB": Too big…`. */
const FIELD_ISSUE = /(?:^|;\s*)[\w.-]+: field "([^"]+)": ([^;]+)/g;
/** Where a structured dump starts: a JSON array or object over several lines, or a stack trace. */
const DUMP_START = /[[{]\s*\n|\n\s+at /;

function clip(text: string): string {
  if (text.length <= SUMMARY_LIMIT) return text;
  const cut = text.slice(0, SUMMARY_LIMIT);
  const atWord = cut.lastIndexOf(' ');
  return `${(atWord > SUMMARY_LIMIT / 2 ? cut.slice(0, atWord) : cut).replace(/[\s,;:.]+$/, '')}…`;
}

/**
 * Turns what a call failed with into something to read: field issues become "field: problem",
 * a JSON dump or a stack is cut off, and a long text is shortened. Nothing is lost: the full
 * text comes back as `details` whenever the summary differs from it.
 */
export function readableError(text: string): ReadableError {
  const trimmed = text.trim();
  const issues = [...trimmed.matchAll(FIELD_ISSUE)];
  let summary: string;
  if (issues.length > 0) {
    summary = issues.map(([, field, problem]) => `${field === '(input)' ? 'input' : field!.replace(/^patch\./, '')}: ${problem!.trim()}`).join('; ');
  } else {
    const dumpAt = trimmed.search(DUMP_START);
    const head = dumpAt >= 0 ? trimmed.slice(0, dumpAt) : (trimmed.split('\n')[0] ?? '');
    summary = head.replace(/[\s:]+$/, '') || 'No readable message came with the error.';
  }
  summary = clip(summary);
  return { summary, details: summary === trimmed ? null : trimmed };
}
