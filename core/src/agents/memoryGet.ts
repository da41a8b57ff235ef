import type Database from 'better-sqlite3';
import type { OperationOutput } from '../contract/index.js';
import { ReverieError } from '../platform/errors.js';
import { entryOrigin } from '../provenance/lineOrigin.js';
import type { WorkspaceFiles } from '../workspace/workspaceFiles.js';

/**
 * Lines of one workspace memory file. The path goes through the same checks as the editor
 * (no `..`, no symlinks, memory files only); for agents, absolute paths are refused outright,
 * so nothing outside the workspace is ever read.
 */
export function readMemoryLines(files: WorkspaceFiles, indexDb: Database.Database, path: string, from: number, count: number, allowAbsolute: boolean): OperationOutput<'memory.get'> {
  if (!allowAbsolute && (path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path))) {
    throw new ReverieError('forbidden', `${path}: agents read workspace files by workspace-relative path (e.g. memory/2026-04-05.md), never absolute paths.`);
  }
  const { text } = files.read(path);
  const all = text.split(/\r?\n/);
  if (all.length > 0 && all[all.length - 1] === '') all.pop();
  if (from > Math.max(1, all.length)) throw new ReverieError('invalid-input', `${path} has ${all.length} lines; "from" ${from} is past the end.`);
  const lines = all.slice(from - 1, from - 1 + count);
  const { origin } = entryOrigin(indexDb, path, 'memory', from, from + lines.length - 1, lines);
  return { path, from, lines: lines.length, totalLines: all.length, text: lines.join('\n'), origin };
}
