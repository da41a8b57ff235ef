import { parseMarkdownEntries, type MarkdownEntry } from '../../workspace/markdownEntries.js';

/** Entries still in force: an entry marked `<!-- status: superseded -->` was replaced by a newer one. */
export function activeEntries(text: string): MarkdownEntry[] {
  return parseMarkdownEntries(text).filter((entry) => entry.annotations.status !== 'superseded');
}

const COMMENT_LINE = /^\s*<!--.*-->\s*$/;

/** The file's text without superseded entries (nor the marker lines directly above them); everything else as written. */
export function withoutSupersededEntries(text: string): string {
  const superseded = parseMarkdownEntries(text).filter((entry) => entry.annotations.status === 'superseded');
  if (superseded.length === 0) return text;
  const lines = text.split(/\r?\n/);
  const drop = new Set<number>();
  for (const entry of superseded) {
    for (let line = entry.startLine; line <= entry.endLine; line++) drop.add(line - 1);
    // Marker comments directly above belong to the entry (parseMarkdownEntries attaches them).
    for (let index = entry.startLine - 2; index >= 0 && COMMENT_LINE.test(lines[index]!); index--) drop.add(index);
  }
  return lines.filter((_, index) => !drop.has(index)).join('\n');
}

/** Project keys compare as written, ignoring case and surrounding space (`GitHub.com/x` is `github.com/x`). */
export function sameProject(annotated: string | null, project: string | undefined): boolean {
  return annotated !== null && project !== undefined && annotated.trim().toLowerCase() === project.trim().toLowerCase();
}
