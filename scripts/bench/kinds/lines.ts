/**
 * The entry-kind benchmark's labelled lines (lines.txt): parsed, checked, and split into a tune
 * half and a held-out half by a hash of each line's text, so the split is fixed before any
 * classifier output is seen and never moves when lines are added or rules change.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EntryKind } from '../../../core/src/workspace/entryKind.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** The rounds of labelled lines, in the order they were written: each round was written before the rules of the next were made. */
export const KIND_LINE_FILES: readonly string[] = [path.join(HERE, 'lines.txt'), path.join(HERE, 'round2.txt'), path.join(HERE, 'round3.txt'), path.join(HERE, 'round4.txt')];

export const LABELLED_KINDS: readonly EntryKind[] = ['fact', 'preference', 'decision', 'procedure', 'event', 'task', 'question', 'time-bounded'];

export type KindHalf = 'tune' | 'held-out';

export interface KindLine {
  /** The file (round) the line is in, and its 1-based line number there. */
  file: string;
  lineNo: number;
  kind: EntryKind;
  /** For time-bounded lines whose end the line states: the last day it holds. */
  validUntil: string | null;
  /** ISO 639-1 code when the line is not in English. */
  lang: string | null;
  /** The note day the line is read against (`@day`). */
  noteDay: string;
  text: string;
  half: KindHalf;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The half a line belongs to: the first byte of sha256(text) even → tune, odd → held-out. The
 * text is the line as written (after ` | `), so the same line always lands in the same half.
 */
export function halfOf(text: string): KindHalf {
  return createHash('sha256').update(text, 'utf8').digest()[0]! % 2 === 0 ? 'tune' : 'held-out';
}

export function parseKindLines(source: string, file: string): KindLine[] {
  const out: KindLine[] = [];
  const seen = new Set<string>();
  let noteDay: string | null = null;
  source.split(/\r?\n/).forEach((raw, i) => {
    const lineNo = i + 1;
    const where = `${file}:${lineNo}`;
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    if (line.startsWith('@day')) {
      const day = line.slice(4).trim();
      if (!DAY.test(day)) throw new Error(`${where}: "@day" needs a date as YYYY-MM-DD (got "${day}")`);
      noteDay = day;
      return;
    }
    const bar = raw.indexOf(' | ');
    if (bar < 0) throw new Error(`${where}: expected "<kind>[ <validUntil>][ lang=<code>] | <line>"; add the label before " | "`);
    const [kind, ...rest] = raw.slice(0, bar).trim().split(/\s+/);
    const text = raw.slice(bar + 3);
    if (!LABELLED_KINDS.includes(kind as EntryKind)) throw new Error(`${where}: unknown kind "${kind}" (one of ${LABELLED_KINDS.join(', ')})`);
    if (!noteDay) throw new Error(`${where}: no "@day YYYY-MM-DD" before the first labelled line`);
    if (!text.trim()) throw new Error(`${where}: the line after " | " is empty`);
    if (seen.has(text)) throw new Error(`${where}: the same line appears twice; every line must be unique (the split hashes it)`);
    seen.add(text);
    let validUntil: string | null = null;
    let lang: string | null = null;
    for (const token of rest) {
      if (DAY.test(token)) validUntil = token;
      else if (/^lang=[a-z]{2}$/.test(token)) lang = token.slice(5);
      else throw new Error(`${where}: "${token}" is neither a validUntil date (YYYY-MM-DD) nor lang=<two-letter code>`);
    }
    if (validUntil && kind !== 'time-bounded') throw new Error(`${where}: only a time-bounded line has a validUntil date`);
    out.push({ file: path.basename(file), lineNo, kind: kind as EntryKind, validUntil, lang, noteDay, text, half: halfOf(text) });
  });
  return out;
}

/** Every round's lines; a line repeated in a later round is an error (it would be counted twice). */
export function loadKindLines(files: readonly string[] = KIND_LINE_FILES): KindLine[] {
  const lines = files.flatMap((file) => parseKindLines(fs.readFileSync(file, 'utf8'), file));
  const seen = new Map<string, KindLine>();
  for (const line of lines) {
    const first = seen.get(line.text);
    if (first) throw new Error(`${line.file}:${line.lineNo}: the same line as ${first.file}:${first.lineNo}; every line must be unique (the split hashes it)`);
    seen.set(line.text, line);
  }
  return lines;
}
