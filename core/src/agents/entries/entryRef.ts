import { ReverieError } from '../../platform/errors.js';
import { lineHash } from '../../provenance/lineHash.js';

/** One line of a workspace file as an agent saw it (see the contract's EntryRef). */
export interface EntryRefParts {
  path: string;
  line: number;
  /** First 8 hex of the line's normalised hash (provenance/lineHash.ts). */
  version: string;
}

export function lineVersion(text: string): string {
  return lineHash(text).slice(0, 8);
}

export function formatEntryRef(path: string, line: number, text: string): string {
  return `${path}#L${line}@${lineVersion(text)}`;
}

export function parseEntryRef(ref: string): EntryRefParts {
  const m = /^([^#\0]+)#L([1-9]\d*)@([0-9a-f]{8})$/.exec(ref);
  if (!m) throw new ReverieError('invalid-input', `ref "${ref}" must look like memory/2026-04-05.md#L7@3f9a0c12 (as memory_store, memory_recent and memory_update return it).`);
  const path = m[1]!;
  // Agents name workspace files by relative path only, as memory_get does.
  if (path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path)) {
    throw new ReverieError('forbidden', `${path}: refs name workspace files by workspace-relative path (e.g. memory/2026-04-05.md), never absolute paths.`);
  }
  return { path, line: Number(m[2]), version: m[3]! };
}
