import { applyEdits, findNodeAtLocation, modify, parse, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { configError, lineAt } from './configError.js';

/**
 * Structural edits of a JSON configuration file (comments and trailing commas allowed, as in
 * Claude Code's and OpenClaw's files): only the bytes of the entry set, appended or removed
 * change; everything else stays as written.
 */
export function parseJsonConfig(file: string, text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false }) as unknown;
  if (errors.length > 0) throw configError(file, `is not valid JSON (${printParseErrorCode(errors[0]!.error)}).`, lineAt(text, errors[0]!.offset));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw configError(file, 'must hold a JSON object at the top.');
  return value as Record<string, unknown>;
}

/** Sets `path` to `value`, creating the objects on the way. */
export function setJsonValue(text: string, path: readonly string[], value: unknown): string {
  if (text.trim() === '') return `${pretty(nest(path, value), '', '  ')}\n`;
  const unit = indentUnit(text);
  const root = parseTree(text)!;
  const existing = findNodeAtLocation(root, [...path]);
  if (existing) {
    const indent = lineIndent(text, existing.parent?.offset ?? existing.offset);
    return splice(text, existing.offset, existing.length, pretty(value, indent, unit));
  }
  // The deepest object already there, and what goes inside it.
  let depth = path.length - 1;
  let parent = findNodeAtLocation(root, path.slice(0, depth) as string[]);
  while (!parent && depth > 0) parent = findNodeAtLocation(root, path.slice(0, --depth) as string[]);
  if (!parent || parent.type !== 'object') throw new Error(`${path.slice(0, depth).join('.') || 'the top'} is not a JSON object`);
  const inner = nest(path.slice(depth + 1), value);
  return insertIntoContainer(text, parent, `${JSON.stringify(path[depth])}: `, inner, unit);
}

/** Appends `value` to the array at `path` (created when missing). */
export function appendJsonValue(text: string, path: readonly string[], value: unknown): string {
  const root = text.trim() === '' ? undefined : parseTree(text);
  const array = root ? findNodeAtLocation(root, [...path]) : undefined;
  if (!array) return setJsonValue(text, path, [value]);
  if (array.type !== 'array') throw new Error(`${path.join('.')} is not a JSON array`);
  return insertIntoContainer(text, array, '', value, indentUnit(text));
}

/** Removes the property at `path`, or the array element at `[...path, index]`. */
export function removeJsonValue(text: string, path: ReadonlyArray<string | number>): string {
  const root = parseTree(text);
  if (!root || !findNodeAtLocation(root, [...path])) return text;
  return applyEdits(text, modify(text, [...path], undefined, {}));
}

function insertIntoContainer(text: string, container: Node, keyText: string, value: unknown, unit: string): string {
  const containerIndent = lineIndent(text, container.offset);
  const children = container.children ?? [];
  if (children.length === 0) {
    // `{}` or `[]` (maybe with space inside): the entry goes on its own lines between the brackets.
    const open = container.offset + 1;
    const close = container.offset + container.length - 1;
    const childIndent = containerIndent + unit;
    return splice(text, open, close - open, `\n${childIndent}${keyText}${pretty(value, childIndent, unit)}\n${containerIndent}`);
  }
  const last = children[children.length - 1]!;
  const childIndent = lineIndent(text, last.offset);
  const sameLine = lineAt(text, last.offset) === lineAt(text, container.offset);
  const indent = sameLine ? containerIndent + unit : childIndent;
  const end = last.offset + last.length;
  return splice(text, end, 0, `,\n${indent}${keyText}${pretty(value, indent, unit)}`);
}

function nest(path: readonly string[], value: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}

function pretty(value: unknown, indent: string, unit: string): string {
  return JSON.stringify(value, null, unit).replace(/\n/g, `\n${indent}`);
}

function splice(text: string, at: number, remove: number, insert: string): string {
  return text.slice(0, at) + insert + text.slice(at + remove);
}

function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/** The file's own indentation step (two spaces when it cannot tell). */
function indentUnit(text: string): string {
  const m = /\n([ \t]+)\S/.exec(text);
  return m ? m[1]! : '  ';
}
