import { sha256Hex } from '../platform/hash.js';

/** Whitespace- and Unicode-normalised line, so re-indenting or re-wrapping spaces keeps the match. */
export function normalizeLine(line: string): string {
  return line.normalize('NFC').replace(/\s+/g, ' ').trim();
}

export function lineHash(line: string): string {
  return sha256Hex(normalizeLine(line)).slice(0, 32);
}
