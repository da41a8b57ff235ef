import { useMemo, useState } from 'react';
import { Badge } from '../../components/Badge.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useReverie } from '../../store/useReverie.js';
import { COVERAGE_TONE } from '../coverage.js';
import { buildFileTree, type FileNode, type FolderNode, type TreeNode } from './fileTree.js';

/** Children shown per folder before a "Show all" button: keeps huge folders cheap to render. */
const CHILDREN_SHOWN = 300;

export function FileTree() {
  const files = useReverie((s) => s.memory.files);
  const filesState = useReverie((s) => s.memory.filesState);
  const filesError = useReverie((s) => s.memory.filesError);
  const tree = useMemo(() => buildFileTree(files), [files]);

  if (filesState === 'error') {
    return <ErrorNotice title="Could not list files" error={filesError} />;
  }
  if (filesState !== 'ready' && files.length === 0) return <p className="muted pad">Loading files…</p>;
  if (files.length === 0) {
    return <EmptyState className="pad">No memory files yet. Add MEMORY.md, USER.md or notes under memory/ to your workspace.</EmptyState>;
  }
  return (
    <ul className="tree" role="tree" aria-label="Memory files" data-testid="file-tree">
      <TreeChildren folder={tree} depth={0} />
    </ul>
  );
}

function TreeChildren({ folder, depth }: { folder: FolderNode; depth: number }) {
  const [showAll, setShowAll] = useState(false);
  const shown = showAll ? folder.children : folder.children.slice(0, CHILDREN_SHOWN);
  return (
    <>
      {shown.map((node) => (
        <TreeRow key={`${node.kind}:${node.path}`} node={node} depth={depth} />
      ))}
      {shown.length < folder.children.length && (
        <li role="none" className={`tree-more depth-${Math.min(depth, 8)}`}>
          <button type="button" className="link-button" onClick={() => setShowAll(true)}>
            Show all {folder.children.length} items
          </button>
        </li>
      )}
    </>
  );
}

function TreeRow({ node, depth }: { node: TreeNode; depth: number }) {
  return node.kind === 'folder' ? <FolderRow folder={node} depth={depth} /> : <FileRow file={node} depth={depth} />;
}

function FolderRow({ folder, depth }: { folder: FolderNode; depth: number }) {
  const isCollapsed = useReverie((s) => s.memory.collapsedFolders.includes(folder.path));
  const toggle = useReverie((s) => s.memory.toggleFolder);
  return (
    <li role="treeitem" aria-expanded={!isCollapsed} className="tree-folder">
      <button
        type="button"
        className={`tree-row folder-row depth-${Math.min(depth, 8)}`}
        data-testid="folder-item"
        data-path={folder.path}
        onClick={() => toggle(folder.path)}
      >
        <span className={`chevron${isCollapsed ? '' : ' is-open'}`} aria-hidden="true" />
        <span className="tree-name">{folder.name}/</span>
        {isCollapsed && folder.problemCount > 0 && (
          <Badge tone="warn" title={`${folder.problemCount} files not indexed`}>
            {folder.problemCount} not indexed
          </Badge>
        )}
      </button>
      {!isCollapsed && (
        <ul role="group" className="tree-group">
          <TreeChildren folder={folder} depth={depth + 1} />
        </ul>
      )}
    </li>
  );
}

function FileRow({ file, depth }: { file: FileNode; depth: number }) {
  const isOpen = useReverie((s) => s.memory.openPath === file.path);
  const openFile = useReverie((s) => s.memory.openFile);
  const { status, reason } = file.coverage;
  const isIndexed = status === 'indexed';
  const hint = isIndexed ? `${file.path} · indexed, ${file.coverage.chunks} chunks` : `${file.path} · ${status}: ${reason ?? 'no reason given'}`;
  return (
    <li role="treeitem" aria-selected={isOpen} className="tree-file">
      <button
        type="button"
        className={`tree-row file-row depth-${Math.min(depth, 8)}${isOpen ? ' is-open' : ''}`}
        data-testid="file-item"
        data-path={file.path}
        data-status={status}
        title={hint}
        onClick={() => void openFile(file.path)}
      >
        <span className={`status-dot status-${status}`} aria-hidden="true" />
        <span className="tree-name">{file.name}</span>
        {!isIndexed && <Badge tone={COVERAGE_TONE[status]}>{status}</Badge>}
        <span className="visually-hidden">{isIndexed ? ', indexed' : ''}</span>
      </button>
      {!isIndexed && (
        <div className={`tree-reason depth-${Math.min(depth, 8)}`} data-testid="file-reason">
          {reason ?? 'no reason given'}
        </div>
      )}
    </li>
  );
}
