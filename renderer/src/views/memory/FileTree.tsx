import { useMemo, useRef, useState, useEffect } from 'react';
import { Badge } from '../../components/Badge.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useReverie } from '../../store/useReverie.js';
import { COVERAGE_TONE } from '../coverage.js';
import { buildFileTree, visibleRows, type FileNode, type FolderNode, type TreeRow } from './fileTree.js';

/** Row heights in px (memory.css keeps them): a file with a problem shows its reason below it. */
const ROW_HEIGHT = 30;
const REASON_HEIGHT = 20;
/** Rows drawn above and below the visible part, so fast scrolling shows no gaps. */
const OVERSCAN = 12;

function rowHeight(row: TreeRow): number {
  return row.node.kind === 'file' && row.node.coverage.status !== 'indexed' ? ROW_HEIGHT + REASON_HEIGHT : ROW_HEIGHT;
}

/** The memory files as a virtualised tree: only the rows on screen are in the page, whatever the count. */
export function FileTree() {
  const files = useReverie((s) => s.memory.files);
  const filesState = useReverie((s) => s.memory.filesState);
  const filesError = useReverie((s) => s.memory.filesError);
  const collapsedFolders = useReverie((s) => s.memory.collapsedFolders);
  const [filter, setFilter] = useState('');
  const tree = useMemo(() => buildFileTree(files), [files]);
  const rows = useMemo(() => visibleRows(tree, new Set(collapsedFolders), filter), [tree, collapsedFolders, filter]);

  if (filesState === 'error') {
    return <ErrorNotice title="Could not list files" error={filesError} />;
  }
  if (filesState !== 'ready' && files.length === 0) return <p className="muted pad">Loading files…</p>;
  if (files.length === 0) {
    return <EmptyState className="pad">No memory files yet. Add MEMORY.md, USER.md or notes under memory/ to your workspace.</EmptyState>;
  }
  return (
    <>
      <input
        type="search"
        className="tree-filter"
        data-testid="tree-filter"
        placeholder={`Filter ${files.length} files…`}
        aria-label="Filter files"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      {rows.length === 0 ? (
        <p className="muted pad" data-testid="tree-no-match">
          No file name contains “{filter}”.
        </p>
      ) : (
        <VirtualRows rows={rows} />
      )}
    </>
  );
}

function VirtualRows({ rows }: { rows: TreeRow[] }) {
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 800 });
  const offsets = useMemo(() => {
    const result = new Array<number>(rows.length + 1);
    result[0] = 0;
    for (let i = 0; i < rows.length; i++) result[i + 1] = result[i]! + rowHeight(rows[i]!);
    return result;
  }, [rows]);

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const measure = (): void => setView({ top: element.scrollTop, height: element.clientHeight || 800 });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const first = Math.max(0, firstAtOrBelow(offsets, view.top) - OVERSCAN);
  const last = Math.min(rows.length, firstAtOrBelow(offsets, view.top + view.height) + OVERSCAN + 1);
  const total = offsets[rows.length]!;

  return (
    <div ref={scroller} className="tree-scroller" data-testid="tree-scroller" onScroll={(e) => setView({ top: e.currentTarget.scrollTop, height: e.currentTarget.clientHeight })}>
      <ul className="tree" role="tree" aria-label="Memory files" data-testid="file-tree" style={{ height: total }}>
        {rows.slice(first, last).map((row, i) => (
          <li
            key={`${row.node.kind}:${row.node.path}`}
            role="treeitem"
            aria-level={row.depth + 1}
            aria-expanded={row.node.kind === 'folder' ? !('isCollapsed' in row && row.isCollapsed) : undefined}
            className={row.node.kind === 'folder' ? 'tree-folder' : 'tree-file'}
            style={{ top: offsets[first + i], height: rowHeight(row) }}
          >
            {row.node.kind === 'folder' ? (
              <FolderRow folder={row.node} depth={row.depth} isCollapsed={'isCollapsed' in row && row.isCollapsed} />
            ) : (
              <FileRow file={row.node} depth={row.depth} />
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The index of the row that contains pixel `y` (binary search over the row offsets). */
function firstAtOrBelow(offsets: number[], y: number): number {
  let lo = 0;
  let hi = offsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid]! <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function FolderRow({ folder, depth, isCollapsed }: { folder: FolderNode; depth: number; isCollapsed: boolean }) {
  const toggle = useReverie((s) => s.memory.toggleFolder);
  return (
    <button
      type="button"
      className={`tree-row folder-row depth-${Math.min(depth, 8)}`}
      data-testid="folder-item"
      data-path={folder.path}
      onClick={() => toggle(folder.path)}
    >
      <span className={`chevron${isCollapsed ? '' : ' is-open'}`} aria-hidden="true" />
      <span className="tree-name">{folder.name}/</span>
      {folder.problemCount > 0 && (
        <Badge tone="warn" title={`${folder.problemCount} files in this folder are not indexed`}>
          {folder.problemCount} not indexed
        </Badge>
      )}
    </button>
  );
}

function FileRow({ file, depth }: { file: FileNode; depth: number }) {
  const isOpen = useReverie((s) => s.memory.openPath === file.path);
  const openFile = useReverie((s) => s.memory.openFile);
  const { status, reason } = file.coverage;
  const isIndexed = status === 'indexed';
  const hint = isIndexed ? `${file.path} · indexed, ${file.coverage.chunks} chunks` : `${file.path} · ${status}: ${reason ?? 'no reason given'}`;
  return (
    <>
      <button
        type="button"
        aria-selected={isOpen}
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
        <div className={`tree-reason depth-${Math.min(depth, 8)}`} data-testid="file-reason" title={reason ?? undefined}>
          {reason ?? 'no reason given'}
        </div>
      )}
    </>
  );
}
