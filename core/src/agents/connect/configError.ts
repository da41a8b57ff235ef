import { ReverieError } from '../../platform/errors.js';

/** A tool's configuration file Reverie will not touch: the message names the file, the line when known, and what to do. */
export function configError(file: string, why: string, line?: number): ReverieError {
  const where = line === undefined ? file : `${file} line ${line}`;
  return new ReverieError('invalid-input', `${where}: ${why} Nothing was changed; fix the file (or add Reverie's entry by hand) and run it again.`);
}

/** 1-based line of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

export function isDeepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && isDeepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** A copy of `root` with `value` at `path` (undefined removes it; emptied parents stay). */
export function withValueAt(root: unknown, path: readonly string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone((root ?? {}) as Record<string, unknown>);
  let node: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null || Array.isArray(node[key])) {
      if (value === undefined) return copy;
      node[key] = {};
    }
    node = node[key] as Record<string, unknown>;
  }
  const last = path[path.length - 1]!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

export function valueAt(root: unknown, path: readonly string[]): unknown {
  let node: unknown = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
