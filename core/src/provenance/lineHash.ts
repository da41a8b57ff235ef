import { sha256Hex } from '../platform/hash.js';
import type { OriginClass } from '../contract/index.js';

/** Whitespace- and Unicode-normalised line, so re-indenting or re-wrapping spaces keeps the match. */
export function normalizeLine(line: string): string {
  return line.normalize('NFC').replace(/\s+/g, ' ').trim();
}

export function lineHash(line: string): string {
  return sha256Hex(normalizeLine(line)).slice(0, 32);
}

/**
 * The recorded class of a line of a file (`owner` when Reverie recorded none), each distinct line
 * hashed once: the entry kinds and the chunks both ask about every line of the same file.
 */
export function lineOriginLookup(lineOrigins: ReadonlyMap<string, OriginClass> | undefined): ((line: string) => OriginClass) | null {
  if (!lineOrigins || lineOrigins.size === 0) return null;
  const known = new Map<string, OriginClass>();
  return (line) => {
    let origin = known.get(line);
    if (origin === undefined) known.set(line, (origin = lineOrigins.get(lineHash(line)) ?? 'owner'));
    return origin;
  };
}
