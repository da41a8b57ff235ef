import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import { configError } from './configError.js';

/**
 * The YAML library, loaded on first use: only `agents connect` for Hermes needs it, and loading
 * it cost every command (`reverie search` included) ~65 ms of CPU.
 */
let yaml: typeof Yaml | null = null;
function yamlLibrary(): typeof Yaml {
  return (yaml ??= createRequire(import.meta.url)('yaml') as typeof Yaml);
}

/**
 * Edits of Hermes' `config.yaml` that keep every other byte: Reverie's server is a block of
 * lines under the top-level `mcp_servers:` mapping, inserted, replaced or cut out as a whole.
 * The caller re-parses the result and compares it with what it meant.
 */
export function parseYamlConfig(file: string, text: string): Record<string, unknown> {
  const doc = yamlLibrary().parseDocument(text, { prettyErrors: false });
  const error = doc.errors[0];
  if (error) throw configError(file, `is not valid YAML (${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}).`, error.linePos?.[0]?.line);
  const value = doc.toJS() as unknown;
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw configError(file, 'must hold a mapping at the top.');
  return value as Record<string, unknown>;
}

const TOP_KEY = (key: string) => new RegExp(`^${key}:\\s*(#.*)?$`);

function indentOf(line: string): number {
  return /^ */.exec(line)![0].length;
}

function isContent(line: string): boolean {
  return line.trim() !== '' && !line.trim().startsWith('#');
}

/** Lines `[start, end)` of `child:` (with its nested lines) directly under the top-level `parent:`. */
function childBlock(lines: string[], parent: string, child: string): { parentLine: number; start: number; end: number; childIndent: number } | null {
  const parentLine = lines.findIndex((l) => TOP_KEY(parent).test(l));
  if (parentLine === -1) return null;
  let childIndent = 2;
  const firstChild = lines.slice(parentLine + 1).find(isContent);
  if (firstChild && indentOf(firstChild) > 0) childIndent = indentOf(firstChild);
  let start = -1;
  let end = lines.length;
  for (let i = parentLine + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (!isContent(line)) continue;
    const indent = indentOf(line);
    if (indent === 0) {
      end = i;
      break;
    }
    if (start === -1 && indent === childIndent && new RegExp(`^ *["']?${child}["']?:`).test(line)) start = i;
    else if (start !== -1 && indent <= childIndent) {
      end = i;
      break;
    }
  }
  if (start === -1) return { parentLine, start: -1, end: -1, childIndent };
  while (end > start + 1 && !isContent(lines[end - 1]!)) end--;
  return { parentLine, start, end, childIndent };
}

/** Sets `parent.child` to the block `body` (lines relative to the child's indentation, first line `child:`). */
export function setYamlChild(text: string, parent: string, body: string): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const child = body.split('\n')[0]!.replace(/:.*$/, '');
  const found = childBlock(lines, parent, child);
  if (!found) {
    const trimmed = text.replace(/(\r?\n)*$/, '');
    const block = [`${parent}:`, ...body.split('\n').map((l) => `  ${l}`)];
    return `${trimmed}${trimmed === '' ? '' : eol}${block.join(eol)}${eol}`;
  }
  const pad = ' '.repeat(found.childIndent);
  const block = body.split('\n').map((l) => pad + l.replace(/^( +)/, (s) => ' '.repeat((s.length / 2) * found.childIndent)));
  if (found.start === -1) lines.splice(found.parentLine + 1, 0, ...block);
  else lines.splice(found.start, found.end - found.start, ...block);
  return lines.join(eol);
}

export function removeYamlChild(text: string, parent: string, child: string): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const found = childBlock(lines, parent, child);
  if (!found || found.start === -1) return text;
  lines.splice(found.start, found.end - found.start);
  // A parent left with no children would read as null: remove it too, as it was before Reverie added it.
  const rest = lines.slice(found.parentLine + 1).find(isContent);
  if (!rest || indentOf(rest) === 0) {
    lines.splice(found.parentLine, 1);
    if (found.parentLine > 0 && found.parentLine === lines.length && lines[found.parentLine - 1] === '') lines.pop();
  }
  return lines.join(eol);
}

/** A YAML double-quoted scalar (JSON strings are valid ones). */
export function yamlString(value: string): string {
  return JSON.stringify(value);
}
