import type { EntityType } from '../contract/index.js';
import { parseFrontMatterFields, type FrontMatterFields } from '../platform/text/frontMatter.js';
import { isFurnitureLabel } from './furniture.js';

export interface NoteContext {
  /** The note's own subject: its title (first `# heading` or front matter title), else its path. */
  subject: { type: EntityType; label: string };
  /** The title as written ("Hamia — payouts-api AWS → GCP" for the subject "Hamia"); null without one. */
  title: string | null;
  /** YYYY-MM-DD from front matter `date:` or the file name; null when neither says. */
  date: string | null;
  frontMatter: { fields: FrontMatterFields; endLine: number } | null;
  /** The text with front matter lines blanked (line numbers kept). */
  body: string;
}

const DATE = /\b(\d{4}-\d{2}-\d{2})\b/;
const DATE_LIKE = /^\s*\d{4}-\d{2}-\d{2}\b[\s\p{P}\w]*$/u;
const TITLE = /^#\s+(.+?)\s*#*\s*$/m;

/** Headings that are dates (`# 2026-04-01`, `# Tue 8 Sep`, `# Monday, 28 September`) name a day, not a concept. */
export function isDateHeading(heading: string): boolean {
  return heading.length <= 40 && (DATE_LIKE.test(heading) || isFurnitureLabel(heading.replace(/[:—–()]+/g, ' ')));
}

export function readNoteContext(path: string, text: string): NoteContext {
  const lines = text.split(/\r?\n/);
  let frontMatter: NoteContext['frontMatter'] = null;
  if (lines[0]?.trimEnd() === '---') {
    const close = lines.findIndex((l, i) => i > 0 && i < 200 && l.trimEnd() === '---');
    if (close > 0) {
      frontMatter = { fields: parseFrontMatterFields(lines.slice(1, close)), endLine: close + 1 };
      for (let i = 0; i <= close; i++) lines[i] = '';
    }
  }
  const body = lines.join('\n');
  const fmTitle = scalar(frontMatter?.fields.title);
  const heading = TITLE.exec(body)?.[1];
  const title = fmTitle ?? (heading && !isDateHeading(heading) ? heading : null);
  const fileName = path.split('/').pop() ?? path;
  const date = DATE.exec(scalar(frontMatter?.fields.date) ?? '')?.[1] ?? DATE.exec(fileName)?.[1] ?? null;
  const type = subjectType(path);
  return { subject: title ? { type, label: type === 'concept' ? title : namedPart(title) } : { type: 'path', label: path }, title: title ?? null, date, frontMatter, body };
}

/** "Hamia — payouts-api AWS → GCP": a project's or person's note titled by its name and a description is about the name. */
function namedPart(title: string): string {
  const head = /^([^—–:]{2,60}?)\s+[—–]\s+\S|^([^—–:]{2,60}?):\s+\S/u.exec(title);
  const name = (head?.[1] ?? head?.[2])?.trim();
  return name && name.split(/\s+/).length <= 4 ? name : title;
}

function subjectType(path: string): EntityType {
  if (/(?:^|\/)projects\//.test(path)) return 'project';
  if (/(?:^|\/)people\//.test(path)) return 'person';
  return 'concept';
}

export function scalar(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  const v = Array.isArray(value) ? value.join(', ') : value;
  return v.trim() === '' ? null : v.trim();
}

export function listOf(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : value.split(',')).map((v) => v.trim()).filter(Boolean);
}
