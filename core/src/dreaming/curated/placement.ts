import { stemmer } from 'stemmer';
import { STOPWORDS } from '../../platform/text/stopwords.js';
import type { PromotionToWrite, TextEdit } from '../types.js';
import { isBlank, joinLines, splitLines } from './lines.js';
import { MEMORY_TITLE, promotionEntryLine, promotionHeading, promotionMarker } from './memoryFile.js';

/**
 * Where a promotion goes in MEMORY.md, as a person would put it: under the existing `## Section`
 * whose subject it shares (`## Kestrel` for a Kestrel fact, `## People` for someone listed
 * there), otherwise in that day's one dated block (a second sweep on the same day extends it).
 */
export function placePromotions(memoryText: string, promotions: readonly PromotionToWrite[], day: string): TextEdit {
  if (promotions.length === 0) return { text: memoryText, added: [], changed: [] };
  const split = memoryText.trim() === '' ? { lines: [MEMORY_TITLE], eol: '\n', finalNewline: true } : splitLines(memoryText);
  const lines = [...split.lines];
  const added: string[] = memoryText.trim() === '' ? [MEMORY_TITLE] : [];
  const dated = promotionHeading(day);
  for (const p of promotions) {
    const entry = [promotionMarker(p.candidateKey), promotionEntryLine(p)];
    const section = bestSection(lines, p.text, dated) ?? sectionNamed(lines, dated);
    if (section) {
      lines.splice(section.insertAt, 0, ...entry);
    } else {
      // One blank line before the day's heading, unless the file already ends with one.
      if (lines.length > 0 && !isBlank(lines[lines.length - 1]!)) lines.push('');
      lines.push(dated, ...entry);
      added.push(dated);
    }
    added.push(...entry);
  }
  return { text: joinLines({ ...split, lines, finalNewline: true }), added, changed: [] };
}

interface Section {
  heading: string;
  /** 0-based index right after the section's last non-blank line. */
  insertAt: number;
  start: number;
}

function sections(lines: readonly string[]): Section[] {
  const found: Section[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^##\s/.test(lines[i]!)) continue;
    let end = i + 1;
    while (end < lines.length && !/^#{1,2}\s/.test(lines[end]!)) end++;
    let insertAt = end;
    while (insertAt > i + 1 && isBlank(lines[insertAt - 1]!)) insertAt--;
    found.push({ heading: lines[i]!, insertAt, start: i });
  }
  return found;
}

function sectionNamed(lines: readonly string[], heading: string): Section | null {
  return sections(lines).find((s) => s.heading.trim() === heading) ?? null;
}

const GENERATED = /^## (?:Promoted From Short-Term Memory|Consolidated Memory) \(/;

/** The person's section that shares the entry's subject: its heading named in the entry, or a name its entries mention. */
function bestSection(lines: readonly string[], text: string, dated: string): Section | null {
  const words = stems(text);
  const names = namesIn(text);
  let best: { section: Section; score: number } | null = null;
  for (const section of sections(lines)) {
    if (GENERATED.test(section.heading) || section.heading.trim() === dated) continue;
    const headingWords = stems(section.heading.replace(/^##\s*/, ''));
    let score = [...headingWords].some((w) => words.has(w)) ? 3 : 0;
    const body = lines.slice(section.start + 1, section.insertAt).join(' ');
    const bodyNames = namesIn(body);
    score += 2 * [...names].filter((n) => bodyNames.has(n)).length;
    if (score >= 2 && (!best || score > best.score)) best = { section, score };
  }
  return best?.section ?? null;
}

function stems(text: string): Set<string> {
  return new Set([...text.toLowerCase().matchAll(/\p{L}{3,}/gu)].map((m) => stemmer(m[0])));
}

/** Capitalised words that are not common words: people, products, projects. */
function namesIn(text: string): Set<string> {
  return new Set([...text.matchAll(/\p{Lu}\p{Ll}{2,}/gu)].map((m) => m[0].toLowerCase()).filter((w) => !STOPWORDS.has(w)));
}
