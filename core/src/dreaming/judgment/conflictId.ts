import { createHash } from 'node:crypto';

/** A contradiction's id, from both texts in sorted order: the same pair always gets the same id. */
export function conflictId(a: string, b: string): string {
  const [x, y] = [a, b].sort();
  return `conflict:${createHash('sha256').update(`${x}\n${y}`).digest('hex').slice(0, 16)}`;
}
