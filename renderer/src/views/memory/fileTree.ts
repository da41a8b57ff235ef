import type { FileCoverage } from '../../../../core/src/contract/index.js';

export interface FolderNode {
  kind: 'folder';
  name: string;
  /** Folder path, used as its key and for collapsing. */
  path: string;
  children: TreeNode[];
  /** How many files below are skipped or failed (shown on collapsed folders). */
  problemCount: number;
}

export interface FileNode {
  kind: 'file';
  name: string;
  path: string;
  coverage: FileCoverage;
}

export type TreeNode = FolderNode | FileNode;

const DATED = /^\d{4}-\d{2}-\d{2}/;

/** Builds a folder tree from workspace-relative (or absolute, for extra paths) file paths. */
export function buildFileTree(files: readonly FileCoverage[]): FolderNode {
  const root: FolderNode = { kind: 'folder', name: '', path: '', children: [], problemCount: 0 };
  for (const coverage of files) {
    const isAbsolute = coverage.path.startsWith('/');
    const segments = coverage.path.split('/').filter(Boolean);
    if (isAbsolute && segments.length > 0) segments[0] = `/${segments[0]}`;
    let folder = root;
    let folderPath = '';
    for (const segment of segments.slice(0, -1)) {
      folderPath = folderPath ? `${folderPath}/${segment}` : segment;
      let next = folder.children.find((c): c is FolderNode => c.kind === 'folder' && c.name === segment);
      if (!next) {
        next = { kind: 'folder', name: segment, path: folderPath, children: [], problemCount: 0 };
        folder.children.push(next);
      }
      folder = next;
    }
    folder.children.push({ kind: 'file', name: segments.at(-1) ?? coverage.path, path: coverage.path, coverage });
  }
  finish(root);
  return root;
}

function finish(folder: FolderNode): number {
  let problems = 0;
  for (const child of folder.children) {
    if (child.kind === 'folder') problems += finish(child);
    else if (child.coverage.status !== 'indexed') problems++;
  }
  folder.problemCount = problems;
  // At the top, MEMORY.md and USER.md come before the memory/ folder; inside folders, subfolders first.
  const foldersFirst = folder.path !== '';
  folder.children.sort((a, b) => compareNodes(a, b, foldersFirst));
  return problems;
}

/** Plain files A–Z, then dated notes newest first (how people look for them). */
function compareNodes(a: TreeNode, b: TreeNode, foldersFirst: boolean): number {
  if (a.kind !== b.kind) return (a.kind === 'folder') === foldersFirst ? -1 : 1;
  const aDated = DATED.test(a.name);
  const bDated = DATED.test(b.name);
  if (aDated !== bDated) return aDated ? 1 : -1;
  return aDated ? b.name.localeCompare(a.name) : a.name.localeCompare(b.name);
}

/** One line of the tree as drawn: a folder or a file at a depth. */
export type TreeRow = { node: FolderNode; depth: number; isCollapsed: boolean } | { node: FileNode; depth: number };

/**
 * The rows a person sees, top to bottom: collapsed folders hide their files; a filter keeps
 * the files whose path contains every typed word (case-insensitive) and opens their folders.
 */
export function visibleRows(root: FolderNode, collapsed: ReadonlySet<string>, filter: string): TreeRow[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const rows: TreeRow[] = [];
  const matches = (file: FileNode): boolean => {
    const path = file.path.toLowerCase();
    return words.every((w) => path.includes(w));
  };
  const walk = (folder: FolderNode, depth: number): boolean => {
    let hasMatch = false;
    for (const child of folder.children) {
      if (child.kind === 'file') {
        if (words.length === 0 || matches(child)) {
          rows.push({ node: child, depth });
          hasMatch = true;
        }
        continue;
      }
      const isCollapsed = words.length === 0 && collapsed.has(child.path);
      const at = rows.length;
      rows.push({ node: child, depth, isCollapsed });
      if (isCollapsed) {
        hasMatch = true;
        continue;
      }
      if (walk(child, depth + 1)) hasMatch = true;
      else if (words.length > 0) rows.splice(at, 1); // a folder with no match is left out while filtering
    }
    return hasMatch;
  };
  walk(root, 0);
  return rows;
}
