/**
 * The parts of one Markdown entry line Reverie keeps when an agent rewrites it: the list marker
 * in front, and Reverie's own trailing annotations (`<!-- kind: … -->`, `<!-- project: … -->`,
 * markers set by the agent), so a corrected note stays in its list and its project.
 */
const LINE = /^(\s*(?:[-*+]|\d+[.)])\s+)?(.*?)((?:\s*<!--\s*(?:kind|project|importance|trigger|set-by):[^>]*-->)*)\s*$/;

export function rewriteEntryLine(old: string, words: string): string {
  const m = LINE.exec(old);
  const marker = m?.[1] ?? '- ';
  const annotations = m?.[3] ?? '';
  return `${marker}${words}${annotations}`;
}

/** A line that is an entry of a note (not a heading, not blank, not a lone comment). */
export function isEntryLine(line: string): boolean {
  const trimmed = line.trim();
  return trimmed !== '' && !trimmed.startsWith('#') && !/^<!--.*-->$/.test(trimmed);
}
