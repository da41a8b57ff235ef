import { fieldText, isFenceLine, looksLikeFrontMatter, parseFrontMatterFields, splitList, type FrontMatterFields } from '../platform/text/frontMatter.js';
import { agentTool, type ImportTool } from '../contract/index.js';

/** One searchable unit of an imported file, with 1-based inclusive line numbers. */
export interface ImportedEntry {
  text: string;
  startLine: number;
  endLine: number;
  metadata: ImportedEntryMetadata;
}

export interface ImportedEntryMetadata {
  format: 'hermes-entry' | 'codex-block' | 'claude-topic' | 'claude-index-line' | 'skill' | 'document';
  name?: string;
  description?: string;
  type?: string;
  keywords?: string[];
  /** Every front-matter field as written, for formats that grow new keys. */
  fields?: FrontMatterFields;
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function entryFrom(lines: readonly string[], start: number, end: number, metadata: ImportedEntryMetadata): ImportedEntry {
  return { text: lines.slice(start, end + 1).join('\n'), startLine: start + 1, endLine: end + 1, metadata };
}

/** Drops blank lines at both ends of [start, end]; null when nothing is left. */
function trimRange(lines: readonly string[], start: number, end: number): [number, number] | null {
  while (start <= end && lines[start]!.trim() === '') start++;
  while (end >= start && lines[end]!.trim() === '') end--;
  return start <= end ? [start, end] : null;
}

/**
 * Hermes joins entries with `\n§\n`: a separator is a line holding only `§`. A `§` anywhere
 * else (say "see § 3") is part of the entry's text.
 */
export function parseHermesEntries(text: string): ImportedEntry[] {
  const lines = splitLines(text);
  const entries: ImportedEntry[] = [];
  let start = 0;
  for (let i = 0; i <= lines.length; i++) {
    if (i < lines.length && lines[i]!.replace(/\r$/, '') !== '§') continue;
    const range = trimRange(lines, start, i - 1);
    if (range) entries.push(entryFrom(lines, range[0], range[1], { format: 'hermes-entry' }));
    start = i + 1;
  }
  return entries;
}

/**
 * Codex's `MEMORY.md` is a run of blocks, each YAML front matter (`description`, `keywords`,
 * `rollout_summary_files`) followed by bullets. A `---` only opens a block when what follows
 * is front matter closed by another `---`, so a horizontal rule in the bullets stays text.
 */
export function parseCodexMemoryBlocks(text: string): ImportedEntry[] {
  const lines = splitLines(text);
  const opens: Array<{ open: number; close: number }> = [];
  for (let i = 0; i < lines.length; i++) {
    if (!isFenceLine(lines[i]!)) continue;
    const close = lines.findIndex((l, j) => j > i && isFenceLine(l));
    if (close < 0) break;
    if (looksLikeFrontMatter(lines.slice(i + 1, close))) {
      opens.push({ open: i, close });
      i = close;
    }
  }
  if (opens.length === 0) return parseDocument(text);
  const entries: ImportedEntry[] = [];
  const preamble = trimRange(lines, 0, opens[0]!.open - 1);
  if (preamble) entries.push(entryFrom(lines, preamble[0], preamble[1], { format: 'document' }));
  for (const [n, { open, close }] of opens.entries()) {
    const end = (opens[n + 1]?.open ?? lines.length) - 1;
    const range = trimRange(lines, open, end)!;
    const fields = parseFrontMatterFields(lines.slice(open + 1, close));
    entries.push(entryFrom(lines, range[0], range[1], { format: 'codex-block', ...describe(fields), fields }));
  }
  return entries;
}

/**
 * A Claude Code topic file (`name`, `description`, `type` front matter + body) or a Codex
 * `SKILL.md`: one entry for the whole file, carrying its front matter.
 */
export function parseFrontMatterDocument(text: string, format: 'claude-topic' | 'skill'): ImportedEntry[] {
  const lines = splitLines(text);
  const close = lines.length > 0 && isFenceLine(lines[0]!) ? lines.findIndex((l, j) => j > 0 && isFenceLine(l)) : -1;
  if (close < 0) return parseDocument(text);
  const fields = parseFrontMatterFields(lines.slice(1, close));
  const range = trimRange(lines, 0, lines.length - 1)!;
  return [entryFrom(lines, range[0], range[1], { format, ...describe(fields), fields })];
}

/** Claude Code's `MEMORY.md` index: one entry per `- [Title](file.md) — hook` line. */
export function parseClaudeMemoryIndex(text: string): ImportedEntry[] {
  const lines = splitLines(text);
  const entries: ImportedEntry[] = [];
  for (const [i, line] of lines.entries()) {
    const match = /^\s*[-*]\s+\[([^\]]+)\]\(([^)]+)\)\s*(?:[—–-]+\s*(.*))?$/.exec(line);
    if (match) entries.push(entryFrom(lines, i, i, { format: 'claude-index-line', name: match[1]!, description: (match[3] ?? '').trim(), fields: { file: match[2]! } }));
  }
  return entries.length > 0 ? entries : parseDocument(text);
}

/** Any other file: the whole text is one entry (the chunker splits it further). */
export function parseDocument(text: string): ImportedEntry[] {
  const lines = splitLines(text);
  const range = trimRange(lines, 0, lines.length - 1);
  return range ? [entryFrom(lines, range[0], range[1], { format: 'document' })] : [];
}

/** Picks the parser for an imported file from its tool and its path inside the collection. */
export function parseImportedEntries(tool: ImportTool, relPath: string, text: string): ImportedEntry[] {
  const name = relPath.split('/').pop() ?? relPath;
  switch (agentTool(tool)?.imports) {
    case 'hermes-memories':
      return parseHermesEntries(text);
    case 'codex-memories':
      if (name === 'MEMORY.md') return parseCodexMemoryBlocks(text);
      if (name === 'SKILL.md') return parseFrontMatterDocument(text, 'skill');
      return parseDocument(text);
    case 'claude-code-projects':
      if (name === 'MEMORY.md') return parseClaudeMemoryIndex(text);
      return parseFrontMatterDocument(text, 'claude-topic');
    default:
      // A folder under memory/imports/ that no registered tool imports into: one plain document.
      return parseDocument(text);
  }
}

function describe(fields: FrontMatterFields): Pick<ImportedEntryMetadata, 'name' | 'description' | 'type' | 'keywords'> {
  const out: Pick<ImportedEntryMetadata, 'name' | 'description' | 'type' | 'keywords'> = {};
  const name = fieldText(fields, 'name');
  const description = fieldText(fields, 'description');
  const type = fieldText(fields, 'type');
  const keywords = fields.keywords;
  if (name) out.name = name;
  if (description) out.description = description;
  if (type) out.type = type;
  if (keywords !== undefined) out.keywords = Array.isArray(keywords) ? keywords : splitList(keywords);
  return out;
}
