import { parse, TomlError } from 'smol-toml';
import { configError } from './configError.js';

/**
 * Edits of Codex's `config.toml` that keep every other byte: a table Reverie owns
 * (`[mcp_servers.reverie]`, with its sub-tables) is written, replaced or cut out as one block of
 * lines, and one key can be added under an existing table header. The caller re-parses the
 * result and compares it with what it meant (connector.ts), so an unusual file is refused, never
 * damaged.
 */
export function parseTomlConfig(file: string, text: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof TomlError) throw configError(file, `is not valid TOML (${error.message.split('\n')[0]!.replace(/^Invalid TOML document: /, '')}).`, error.line);
    throw error;
  }
}

const HEADER = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$/;

/** The dotted name of a table header line (`[mcp_servers.reverie]` → `mcp_servers.reverie`), quotes removed. */
function headerName(line: string): string | null {
  const m = HEADER.exec(line);
  if (!m) return null;
  return m[1]!
    .split('.')
    .map((part) => part.trim().replace(/^"(.*)"$/, '$1').replace(/^'(.*)'$/, '$1'))
    .join('.');
}

interface Block {
  start: number;
  /** Exclusive. */
  end: number;
}

/** Line ranges of `table` and its sub-tables. Multi-line strings are rare in these files; a wrong cut is caught by the re-parse. */
function tableBlocks(lines: string[], table: string): Block[] {
  const blocks: Block[] = [];
  let open: number | null = null;
  for (let i = 0; i <= lines.length; i++) {
    const name = i < lines.length ? headerName(lines[i]!) : '';
    if (name === null) continue;
    if (open !== null) {
      let end = i;
      while (end > open + 1 && lines[end - 1]!.trim() === '') end--; // blank lines before the next table are not ours
      blocks.push({ start: open, end });
      open = null;
    }
    if (i < lines.length && (name === table || name.startsWith(`${table}.`))) open = i;
  }
  return blocks;
}

/** Replaces (or appends) the block of `table` with `body` (its header and key lines). */
export function setTomlTable(text: string, table: string, body: string): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const blocks = tableBlocks(lines, table);
  const bodyLines = body.split('\n');
  if (blocks.length === 0) {
    const trimmed = text.replace(/(\r?\n)*$/, '');
    return `${trimmed}${trimmed === '' ? '' : `${eol}${eol}`}${bodyLines.join(eol)}${eol}`;
  }
  const [first, ...rest] = blocks;
  for (const block of rest.reverse()) lines.splice(block.start, block.end - block.start);
  lines.splice(first!.start, first!.end - first!.start, ...bodyLines);
  return lines.join(eol);
}

export function removeTomlTable(text: string, table: string): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const blocks = tableBlocks(lines, table);
  if (blocks.length === 0) return text;
  for (const block of [...blocks].reverse()) {
    let { start, end } = block;
    // Take one blank line before the block with it, so removing leaves the file as it was before adding.
    if (start > 0 && lines[start - 1]!.trim() === '' && (end >= lines.length || lines[end]!.trim() === '' || start === 1 || lines[start - 2]!.trim() !== '')) start--;
    else if (end < lines.length && lines[end]!.trim() === '') end++;
    lines.splice(start, end - start);
  }
  return lines.join(eol);
}

/** Adds `key = value` right under the header of `table` (appending the table when it is missing). */
export function addTomlKey(text: string, table: string, key: string, value: string): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const header = lines.findIndex((l) => headerName(l) === table && !/^\s*\[\[/.test(l));
  if (header === -1) return setTomlTable(text, table, `[${table}]\n${key} = ${value}`);
  lines.splice(header + 1, 0, `${key} = ${value}`);
  return lines.join(eol);
}

/** A TOML basic string (JSON's escapes are TOML's). */
export function tomlString(value: string): string {
  return JSON.stringify(value);
}
