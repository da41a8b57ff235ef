import { normalizeEntryText, parseMarkdownEntries, type MarkdownEntry } from '../../workspace/markdownEntries.js';
import { isSameLineage } from '../lineage.js';
import type { TextEdit } from '../types.js';
import { isBlank, joinLines, splitLines } from './lines.js';

export { isDirective } from './directive.js';

/**
 * USER.md writer: a newer directive supersedes the older one of the same lineage in place
 * (status flipped, new line right after it), so the file never holds a live contradiction.
 */

export const USER_TITLE = '# User';
const ACTIVE_STATUS = /(<!--\s*status:\s*)active(\s*-->)/;

export interface DirectiveToWrite {
  text: string;
  /** YYYY-MM-DD: the day the note saying it was written; null when that is unknown (never the day it was read). */
  observed: string | null;
  annotations?: string[];
}

export function directiveLine(directive: DirectiveToWrite): string {
  const words = directive.text.replace(/\s+/g, ' ').trim();
  const annotations = (directive.annotations ?? []).map((a) => a.trim()).filter(Boolean);
  const observed = directive.observed === null ? [] : [`<!-- observed: ${directive.observed} -->`];
  return ['-', words, ...annotations, ...observed, '<!-- status: active -->'].join(' ');
}

export function applyDirective(userText: string, directive: DirectiveToWrite): TextEdit & { superseded: string[] } {
  const unchanged = { text: userText, added: [], changed: [], superseded: [] };
  const newLine = directiveLine(directive);
  const wanted = normalizeEntryText(directive.text);
  const bullets = parseMarkdownEntries(userText).filter((e) => e.bullet);

  // Hand-written bullets without a status count as live for the duplicate check.
  if (bullets.some((e) => e.annotations.status !== 'superseded' && normalizeEntryText(e.body) === wanted)) return unchanged;

  if (userText.trim() === '') {
    const text = joinLines({ lines: [USER_TITLE, '', newLine], eol: '\n', finalNewline: true });
    return { text, added: [USER_TITLE, newLine], changed: [], superseded: [] };
  }

  const split = splitLines(userText);
  const lines = split.lines;
  // Only an older directive gives way: one observed on a later day than this one's note was said after it, and stays.
  const older = bullets.filter((e) => e.annotations.status === 'active' && !isObservedAfter(e.annotations.observed, directive.observed) && isSameLineage(e.body, directive.text));
  const changed: TextEdit['changed'] = [];
  const superseded: string[] = [];
  for (const entry of older) {
    const index = statusLineIndex(lines, entry);
    if (index < 0) continue;
    const before = lines[index]!;
    const after = before.replace(ACTIVE_STATUS, '$1superseded$2');
    lines[index] = after;
    changed.push({ before, after });
    superseded.push(entry.body);
  }

  if (changed.length > 0) {
    // Right after the newest superseded entry, so the history reads in order.
    lines.splice(older[older.length - 1]!.endLine, 0, newLine);
    return { text: joinLines({ ...split, lines, finalNewline: true }), added: [newLine], changed, superseded };
  }

  const lastDirective = bullets[bullets.length - 1];
  if (lastDirective) {
    lines.splice(lastDirective.endLine, 0, newLine);
  } else {
    const last = lines[lines.length - 1];
    if (last !== undefined && !isBlank(last)) lines.push('');
    lines.push(newLine);
  }
  return { text: joinLines({ ...split, lines, finalNewline: true }), added: [newLine], changed: [], superseded: [] };
}

/** Whether a directive's `observed` day (YYYY-MM-DD) is later than `day`; an unreadable day is never later. */
function isObservedAfter(observed: string | null, day: string | null): boolean {
  if (observed === null || !/^\d{4}-\d{2}-\d{2}$/.test(observed)) return false;
  // A directive whose own day is unknown cannot show that it is the newer one.
  return day === null || observed > day;
}

/** The entry's line (0-based) carrying `status: active`, or -1. */
function statusLineIndex(lines: string[], entry: MarkdownEntry): number {
  for (let i = entry.startLine - 1; i < entry.endLine; i++) if (ACTIVE_STATUS.test(lines[i] ?? '')) return i;
  return -1;
}
