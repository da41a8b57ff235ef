import { sha256Hex } from '../../platform/hash.js';
import { normalizeEntryText } from '../../workspace/markdownEntries.js';

/** Identity of an entry's words, stable when lines move: 16 hex chars of sha256 of the normalised text. */
export function entryHash(raw: string): string | null {
  const normalized = normalizeEntryText(raw);
  return normalized ? sha256Hex(normalized).slice(0, 16) : null;
}

const hashOfEntry = new WeakMap<object, string | null>();

/** `entryHash` of a parsed entry, computed once per parse (the recorder sees the same entries again and again). */
export function entryHashOf(entry: { raw: string }): string | null {
  let hash = hashOfEntry.get(entry);
  if (hash === undefined) hashOfEntry.set(entry, (hash = entryHash(entry.raw)));
  return hash;
}

/** Queries that differ only in case and spacing count as one. */
export function queryHash(query: string): string {
  return sha256Hex(query.trim().toLowerCase().replace(/\s+/g, ' ')).slice(0, 16);
}

/** `path:startLine:endLine`, the key OpenClaw's promotion markers use. */
export function candidateKey(path: string, startLine: number, endLine: number): string {
  return `${path}:${startLine}:${endLine}`;
}
