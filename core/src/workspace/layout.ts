import path from 'node:path';
import type { ImportTool, SourceKind } from '../contract/index.js';
// The tools table itself, not the contract's entry: the entry loads zod and every record schema, which
// the no-host hook (curated files and the agents store, through this module) would pay for on every event.
import { agentTool } from '../contract/tools.js';

/** Files at the workspace root that Reverie reads, and the source each belongs to. */
export const ROOT_FILES: ReadonlyArray<{ name: string; source: SourceKind }> = [
  { name: 'MEMORY.md', source: 'memory' },
  { name: 'memory.md', source: 'memory' },
  { name: 'USER.md', source: 'memory' },
  { name: 'DREAMS.md', source: 'dreams' },
];

export const MEMORY_DIR = 'memory';

/** Where imported memory of other agent tools is copied: `memory/imports/<tool>/…`. */
export const IMPORTS_DIR = `${MEMORY_DIR}/imports`;

/** The tool whose imported memory a workspace path holds, and the path inside its folder; null for any other path. */
export function importedMemoryOf(path: string): { tool: ImportTool; rest: string } | null {
  if (!path.startsWith(`${IMPORTS_DIR}/`)) return null;
  const inside = path.slice(IMPORTS_DIR.length + 1);
  const slash = inside.indexOf('/');
  if (slash <= 0) return null;
  const tool = inside.slice(0, slash);
  return agentTool(tool)?.imports ? { tool, rest: inside.slice(slash + 1) } : null;
}

/** Long-term files whose rewrites keep a pre-image. */
export const CURATED_FILES = new Set(['MEMORY.md', 'memory.md', 'USER.md']);

export function isMarkdownName(name: string): boolean {
  return name.toLowerCase().endsWith('.md');
}

/** Folders never descended into: VCS data, dependencies, and every dot-folder. */
export function isIgnoredDirName(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

export function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

/** `target` is `folder` itself or lies below it (absolute paths). */
export function isWithinFolder(folder: string, target: string): boolean {
  const rel = path.relative(folder, target);
  return !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** The path used everywhere (index, search, UI): workspace-relative with `/`, or absolute outside it. */
export function displayPath(workspaceRoot: string, absPath: string): string {
  const rel = path.relative(workspaceRoot, absPath);
  if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return toPosix(rel);
  return toPosix(absPath);
}
