import { useMemo } from 'react';
import type { FileCoverage } from '../../../../core/src/contract/index.js';
import { Badge } from '../../components/Badge.js';
import { DataTable, type Column } from '../../components/DataTable.js';
import { EmptyState } from '../../components/EmptyState.js';
import { COVERAGE_PAGE_SIZE } from '../../store/statusSlice.js';
import { useReverie } from '../../store/useReverie.js';
import { COVERAGE_TONE } from '../coverage.js';
import { formatBytes } from '../format.js';

const COLUMNS: Array<Column<FileCoverage>> = [
  { key: 'path', header: 'Path', className: 'path-cell', minWidth: 220, cell: (file) => <code>{file.path}</code> },
  { key: 'source', header: 'Source', priority: 3, minWidth: 80, cell: (file) => file.source },
  { key: 'status', header: 'Status', minWidth: 90, cell: (file) => <Badge tone={COVERAGE_TONE[file.status]}>{file.status}</Badge> },
  {
    key: 'reason',
    header: 'Reason',
    className: 'reason-cell',
    priority: 2,
    minWidth: 180,
    cellProps: () => ({ 'data-testid': 'coverage-reason' }),
    cell: (file) => file.reason ?? '',
  },
  { key: 'size', header: 'Size', align: 'end', priority: 3, minWidth: 80, cell: (file) => formatBytes(file.size) },
  { key: 'chunks', header: 'Chunks', align: 'end', priority: 3, minWidth: 70, cell: (file) => file.chunks },
];

/** Per-file coverage, filterable and paged so thousands of files stay quick. */
export function CoverageTable({ files }: { files: FileCoverage[] }) {
  const showOnlyProblems = useReverie((s) => s.status.showOnlyProblems);
  const pathFilter = useReverie((s) => s.status.pathFilter);
  const page = useReverie((s) => s.status.page);
  const actions = useReverie((s) => s.status);

  const rows = useMemo(() => {
    const needle = pathFilter.trim().toLowerCase();
    return files.filter(
      (f) => (!showOnlyProblems || f.status !== 'indexed') && (needle === '' || f.path.toLowerCase().includes(needle)),
    );
  }, [files, showOnlyProblems, pathFilter]);

  const pageCount = Math.max(1, Math.ceil(rows.length / COVERAGE_PAGE_SIZE));
  const currentPage = Math.min(page, pageCount - 1);
  const shown = rows.slice(currentPage * COVERAGE_PAGE_SIZE, (currentPage + 1) * COVERAGE_PAGE_SIZE);
  const problemCount = files.filter((f) => f.status !== 'indexed').length;

  return (
    <section className="coverage" aria-labelledby="coverage-heading">
      <div className="coverage-toolbar">
        <h2 id="coverage-heading">Coverage</h2>
        <label className="checkbox">
          <input
            type="checkbox"
            data-testid="filter-problems"
            checked={showOnlyProblems}
            onChange={(event) => actions.setShowOnlyProblems(event.target.checked)}
          />
          Only files not indexed ({problemCount})
        </label>
        <label className="inline-field">
          <span>Filter by path</span>
          <input
            type="search"
            className="text-input"
            data-testid="coverage-filter"
            value={pathFilter}
            onChange={(event) => actions.setPathFilter(event.target.value)}
          />
        </label>
      </div>

      <DataTable
        className="coverage-table"
        testId="coverage-table"
        aria-labelledby="coverage-heading"
        columns={COLUMNS}
        rows={shown}
        rowKey={(file) => file.path}
        rowProps={(file) => ({ 'data-testid': 'coverage-row', 'data-path': file.path, 'data-status': file.status })}
        empty={<EmptyState testId="coverage-empty">{showOnlyProblems ? 'Every file is indexed.' : 'No files match.'}</EmptyState>}
      />

      {pageCount > 1 && (
        <nav className="pager" aria-label="Coverage pages">
          <button type="button" className="button" disabled={currentPage === 0} onClick={() => actions.setPage(currentPage - 1)}>
            Previous
          </button>
          <span>
            Page {currentPage + 1} of {pageCount} · {rows.length} files
          </span>
          <button
            type="button"
            className="button"
            disabled={currentPage >= pageCount - 1}
            onClick={() => actions.setPage(currentPage + 1)}
          >
            Next
          </button>
        </nav>
      )}
    </section>
  );
}
