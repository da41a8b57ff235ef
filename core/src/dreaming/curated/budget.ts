import type { TextEdit } from '../types.js';
import { joinLines, splitLines } from './lines.js';

/**
 * MEMORY.md budget: when the file outgrows its budget, dreaming's own sections give up their
 * `[score=…]` metadata, oldest first. Hand-written text is never touched; if that is not
 * enough the caller refuses to add more promotions.
 */

const GENERATED_HEADING = /^## (?:Promoted From Short-Term Memory|Consolidated Memory) \((.*)\)\s*$/;
/** A generated section runs to the next `#`/`##` heading or the end of the file. */
const SECTION_END = /^#{1,2}\s/;
const TRAILING_METADATA = /\s*\[score=[^\]]*\]\s*$/;
const DAY = /\d{4}-\d{2}-\d{2}/;

interface GeneratedSection {
  /** 0-based line range, heading excluded, end exclusive. */
  start: number;
  end: number;
  day: string;
}

export function generatedSections(lines: readonly string[]): GeneratedSection[] {
  const sections: GeneratedSection[] = [];
  let open: GeneratedSection | null = null;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (!SECTION_END.test(line)) continue;
    if (open) sections.push({ ...open, end: index });
    const heading = GENERATED_HEADING.exec(line);
    open = heading ? { start: index + 1, end: lines.length, day: DAY.exec(heading[1]!)?.[0] ?? '' } : null;
  }
  if (open) sections.push(open);
  return sections;
}

/** Oldest first by the heading's day; undated sections count as oldest, file order breaks ties. */
function oldestFirst(sections: GeneratedSection[]): GeneratedSection[] {
  return sections
    .map((section, order) => ({ section, order }))
    .sort((a, b) => (a.section.day < b.section.day ? -1 : a.section.day > b.section.day ? 1 : a.order - b.order))
    .map(({ section }) => section);
}

export function enforceMemoryBudget(text: string, budgetChars: number): TextEdit & { compacted: number; overBudget: boolean } {
  const split = splitLines(text);
  const lines = split.lines;
  const changed: TextEdit['changed'] = [];
  let length = text.length;
  let compacted = 0;

  for (const section of oldestFirst(generatedSections(lines))) {
    if (length <= budgetChars) break;
    let strippedAny = false;
    for (let i = section.start; i < section.end; i++) {
      const before = lines[i]!;
      if (before.trimStart().startsWith('<!--') || !TRAILING_METADATA.test(before)) continue;
      const after = before.replace(TRAILING_METADATA, '');
      lines[i] = after;
      changed.push({ before, after });
      length -= before.length - after.length;
      strippedAny = true;
    }
    if (strippedAny) compacted++;
  }

  const result = changed.length > 0 ? joinLines(split) : text;
  return { text: result, added: [], changed, compacted, overBudget: result.length > budgetChars };
}
