import { useMemo } from 'react';
import type { FileCoverage } from '../../../../core/src/contract/index.js';
import { COVERAGE_PAGE_SIZE } from '../../store/statusSlice.js';
import { useReverie } from '../../store/useReverie.js';
import { formatBytes } from '../format.js';

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

      <table className="coverage-table" data-testid="coverage-table">
        <thead>
          <tr>
            <th scope="col">Path</th>
            <th scope="col">Source</th>
            <th scope="col">Status</th>
            <th scope="col">Reason</th>
            <th scope="col" className="num">
              Size
            </th>
            <th scope="col" className="num">
              Chunks
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((file) => (
            <tr key={file.path} data-testid="coverage-row" data-path={file.path} data-status={file.status}>
              <td className="path-cell">
                <code>{file.path}</code>
              </td>
              <td>{file.source}</td>
              <td>
                <span className={`badge badge-${file.status}`}>{file.status}</span>
              </td>
              <td className="reason-cell" data-testid="coverage-reason">
                {file.reason ?? ''}
              </td>
              <td className="num">{formatBytes(file.size)}</td>
              <td className="num">{file.chunks}</td>
            </tr>
          ))}
          {shown.length === 0 && (
            <tr>
              <td colSpan={6} className="muted">
                {showOnlyProblems ? 'Every file is indexed.' : 'No files match.'}
              </td>
            </tr>
          )}
        </tbody>
      </table>

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
