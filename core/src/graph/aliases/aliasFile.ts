import fs from 'node:fs';
import path from 'node:path';
import type { GraphAliases } from '../../contract/index.js';
import { ReverieError, errnoCode } from '../../platform/errors.js';
import { replaceFileChecked } from '../../platform/checkedReplace.js';
import { sha256Hex } from '../../platform/hash.js';
import { workspaceLockFile } from '../../workspace/workspaceLocks.js';
import { labelKey } from '../labelKey.js';
import { ALIAS_FILE, AliasBook } from './aliasBook.js';

/** The alias file as read: its text (empty when missing), hash and rules. */
export interface AliasFileRead {
  exists: boolean;
  text: string;
  /** Null when the file does not exist. */
  sha256: string | null;
  book: AliasBook;
}

/** An alias file larger than this is not read (it holds names, not notes). */
const MAX_BYTES = 1_000_000;

const HEADER = `# Aliases

Names the knowledge graph treats as one thing, or as different things. Reverie reads every list
item below; edit them by hand or from the graph view. \`Dana Okafor = Dana = @dana\` shows those
names as one entity under the first; \`Sam != Sam Reyes\` keeps two apart. A line that cannot
apply is ignored, and the graph view says which and why.

`;

export function readAliasFile(workspaceRoot: string): AliasFileRead {
  const file = path.join(workspaceRoot, ALIAS_FILE);
  let bytes: Buffer;
  try {
    if (fs.lstatSync(file).isSymbolicLink()) return unreadable(`${ALIAS_FILE} is a symlink; symlinks are not followed, so its rules are not applied.`);
    bytes = fs.readFileSync(file);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return { exists: false, text: '', sha256: null, book: new AliasBook() };
    return unreadable(`${ALIAS_FILE} cannot be read (${errnoCode(error) ?? (error as Error).message}); its rules are not applied.`);
  }
  const sha256 = sha256Hex(bytes);
  if (bytes.length > MAX_BYTES) return { ...unreadable(`${ALIAS_FILE} is larger than 1 MB; its rules are not applied.`), sha256 };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    return { ...unreadable(`${ALIAS_FILE} is not UTF-8 (${(error as Error).message}); re-save it as UTF-8 for its rules to apply.`), sha256 };
  }
  return { exists: true, text, sha256, book: AliasBook.parse(text) };
}

function unreadable(message: string): AliasFileRead {
  const book = new AliasBook();
  book.notices.push({ line: 0, message });
  return { exists: true, text: '', sha256: 'unreadable', book };
}

/** What the contract shows of the alias file. */
export function aliasState(read: AliasFileRead): GraphAliases {
  return { path: ALIAS_FILE, exists: read.exists, sha256: read.sha256, rules: read.book.rules, notices: read.book.notices };
}

/**
 * Adds a merge rule (the first name is shown) as a new list item at the end of the file,
 * refusing it with a sentence when it would make a cycle, put a name in two groups, or merge
 * what a split keeps apart. Lines the person wrote are never changed.
 */
export function addMerge(workspaceRoot: string, names: readonly string[]): AliasFileRead {
  const read = readAliasFile(workspaceRoot);
  assertWritable(read);
  const lines = linesOf(read);
  const refusal = read.book.mergeRefusal(names, lines.length + 1);
  if (refusal) throw new ReverieError('invalid-input', `Not merged: ${names.map((n) => `"${n.trim()}"`).join(' and ')} ${refusal}.`);
  return write(workspaceRoot, read, [...lines, `- ${names.map((n) => n.replace(/\s+/g, ' ').trim()).join(' = ')}`]);
}

/**
 * Keeps two names apart: takes `name` out of the merge lines that join it to `from` (the only
 * lines changed, and only by that name), then adds "name != from" so automatic merging (a
 * first name, a handle) does not join them again.
 */
export function addSplit(workspaceRoot: string, name: string, from: string): AliasFileRead {
  const read = readAliasFile(workspaceRoot);
  assertWritable(read);
  const lines = linesOf(read);
  const [nameKey, fromKey] = [labelKey(name), labelKey(from)];
  if (!nameKey || !fromKey) throw new ReverieError('invalid-input', 'Not split: both names must have letters or digits.');
  for (const rule of read.book.rules) {
    if (rule.kind !== 'merge') continue;
    const keys = rule.names.map(labelKey);
    const drop = keys.slice(1).includes(nameKey) && keys.includes(fromKey) ? nameKey : keys.slice(1).includes(fromKey) && keys[0] === nameKey ? fromKey : null;
    if (drop === null) continue;
    const kept = rule.names.filter((_, i) => keys[i] !== drop);
    const bullet = /^\s*[-*+]\s+/.exec(lines[rule.line - 1]!)?.[0] ?? '- ';
    lines[rule.line - 1] = kept.length >= 2 ? `${bullet}${kept.join(' = ')}` : `<!-- split by Reverie: ${rule.names.join(' = ')} -->`;
  }
  const next = AliasBook.parse(lines.join('\n'));
  const refusal = next.splitRefusal(name, from, lines.length + 1);
  if (refusal) throw new ReverieError('invalid-input', `Not split: "${name.trim()}" and "${from.trim()}" are still merged through other lines (${refusal}); edit ${ALIAS_FILE} by hand.`);
  return write(workspaceRoot, read, [...lines, `- ${name.replace(/\s+/g, ' ').trim()} != ${from.replace(/\s+/g, ' ').trim()}`]);
}

function assertWritable(read: AliasFileRead): void {
  if (read.sha256 === 'unreadable') throw new ReverieError('invalid-input', read.book.notices[0]?.message ?? `${ALIAS_FILE} cannot be read.`);
}

/** The file's lines without a trailing empty one; a new file starts with its explanation. */
function linesOf(read: AliasFileRead): string[] {
  const text = read.exists ? read.text : HEADER;
  const lines = text.split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Replaces the file only if it still holds what was read (under the workspace's Markdown lock). */
function write(workspaceRoot: string, read: AliasFileRead, lines: string[]): AliasFileRead {
  const file = path.join(workspaceRoot, ALIAS_FILE);
  const newline = read.text.includes('\r\n') ? '\r\n' : '\n';
  const result = replaceFileChecked({ file, expectedSha256: read.sha256, next: Buffer.from(`${lines.join(newline)}${newline}`, 'utf8'), lockFile: workspaceLockFile(workspaceRoot, 'markdown') });
  if (result.outcome === 'changed') throw new ReverieError('conflict', `${ALIAS_FILE} was not changed: ${result.reason} Try again.`);
  return readAliasFile(workspaceRoot);
}
