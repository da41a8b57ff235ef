import { useState, type HTMLAttributes, type ReactNode, type TdHTMLAttributes } from 'react';
import { classNames } from './classNames.js';
import { DEFAULT_MIN_WIDTH } from './columnFit.js';
import { ShowMore } from './ShowMore.js';
import { useCollapsedColumns } from './useCollapsedColumns.js';
import './DataTable.css';

/** Attributes a cell or row may carry besides its content (test ids, data-*, titles, classes). */
type CellAttributes = TdHTMLAttributes<HTMLTableCellElement> & Record<`data-${string}`, string | number | boolean | undefined>;
type RowAttributes = HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string | number | boolean | undefined>;

export interface Column<Row> {
  key: string;
  header: ReactNode;
  /** Names the column where the header is not plain text (its collapsed detail line uses it). */
  label?: string;
  cell(row: Row, index: number): ReactNode;
  /** `end` for numbers: right-aligned, tabular figures. */
  align?: 'start' | 'end';
  /** 1 (the default) is never collapsed; 2, 3… move into the row's detail line, highest first, when the table is too narrow. */
  priority?: number;
  /** The narrowest the column is readable at, in px (default 80): decides when the table is too narrow. */
  minWidth?: number;
  /** Classes of the column's header and cells. */
  className?: string;
  /** Classes of its `<col>` (fixed widths). */
  colClassName?: string;
  /** Per-row attributes of the cell: test ids, titles, state classes. */
  cellProps?(row: Row, index: number): CellAttributes;
  /** The header is for screen readers only (an actions column). */
  headerHidden?: boolean;
  headerTitle?: string;
  /** The cell names its row (`<th scope="row">`). */
  rowHeader?: boolean;
}

export interface DataTableProps<Row> {
  columns: ReadonlyArray<Column<Row>>;
  rows: readonly Row[];
  rowKey(row: Row, index: number): string;
  rowProps?(row: Row, index: number): RowAttributes;
  /** Clicking a row (outside its own buttons and links). Give the row a button too: rows are not focusable. */
  onRowClick?(row: Row): void;
  /** The key of the selected row: marked `aria-current` and `is-selected`. */
  selectedKey?: string | null;
  /** Shown instead of the table when there are no rows. */
  empty?: ReactNode;
  /** Rows shown at first; a "Show more" button adds two pages at a time. */
  pageSize?: number;
  /** What the rows are, for "20 of 45 runs". */
  noun?: string;
  moreTestId?: string;
  /** The column whose cell holds the collapsed columns of its row (default: the first). */
  detailsIn?: string;
  /** The header stays in view while the rows scroll (default true). */
  stickyHeader?: boolean;
  /** Every header is for screen readers only (a small key/value table). */
  headersHidden?: boolean;
  /** The width to lay out for until the container is measured (server rendering, tests). */
  initialWidth?: number;
  id?: string;
  className?: string;
  testId?: string;
  'aria-label'?: string;
  'aria-labelledby'?: string;
}

/**
 * A table whose columns are declared once. It never clips a column or widens the page: when it
 * does not fit, its low-priority columns move into a wrapped detail line of each row.
 */
export function DataTable<Row>(props: DataTableProps<Row>) {
  const { columns, rows, rowKey, rowProps, onRowClick, selectedKey = null, empty = null, pageSize, noun = 'rows', moreTestId } = props;
  const [shown, setShown] = useState(pageSize ?? Number.POSITIVE_INFINITY);
  const fit = columns.map((c) => ({ key: c.key, priority: c.priority ?? 1, minWidth: c.minWidth ?? DEFAULT_MIN_WIDTH }));
  const { collapsed, tableRef } = useCollapsedColumns(fit, props.initialWidth);
  if (rows.length === 0) return <>{empty}</>;

  const visible = columns.filter((c) => !collapsed.has(c.key));
  const hidden = columns.filter((c) => collapsed.has(c.key));
  const host = visible.find((c) => c.key === props.detailsIn) ?? visible[0];
  const pageRows = rows.slice(0, shown);
  return (
    <>
      <table
        ref={tableRef}
        id={props.id}
        className={classNames('data-table', props.stickyHeader !== false && 'data-table-sticky', props.className)}
        data-testid={props.testId}
        aria-label={props['aria-label']}
        aria-labelledby={props['aria-labelledby']}
        data-collapsed={hidden.length > 0 ? hidden.map((c) => c.key).join(' ') : undefined}
      >
        {visible.some((c) => c.colClassName) && (
          <colgroup>
            {visible.map((c) => (
              <col key={c.key} className={c.colClassName} />
            ))}
          </colgroup>
        )}
        <thead className={props.headersHidden ? 'visually-hidden' : undefined}>
          <tr>
            {visible.map((c) => (
              <th key={c.key} scope="col" className={cellClass(c)} title={c.headerTitle}>
                {c.headerHidden ? <span className="visually-hidden">{c.header}</span> : c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {pageRows.map((row, index) => {
            const key = rowKey(row, index);
            const isSelected = selectedKey !== null && key === selectedKey;
            const attributes: RowAttributes = { ...rowProps?.(row, index) };
            const className = classNames(attributes.className, onRowClick && 'is-clickable', isSelected && 'is-selected');
            if (className) attributes.className = className;
            if (isSelected) attributes['aria-current'] = 'true';
            return (
              <tr
                key={key}
                {...attributes}
                onClick={onRowClick ? (event) => !isFromControl(event.target) && onRowClick(row) : undefined}
              >
                {visible.map((c) => (
                  <Cell key={c.key} column={c} row={row} index={index}>
                    {c.cell(row, index)}
                    {c === host && hidden.length > 0 && <CollapsedDetails columns={hidden} row={row} index={index} />}
                  </Cell>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
      {pageSize !== undefined && (
        <ShowMore shown={pageRows.length} total={rows.length} noun={noun} testId={moreTestId} onShowMore={() => setShown((n) => n + pageSize * 2)} />
      )}
    </>
  );
}

function cellClass<Row>(column: Column<Row>, extra?: string): string | undefined {
  return classNames(column.className, column.align === 'end' && 'num', extra);
}

function Cell<Row>({ column, row, index, children }: { column: Column<Row>; row: Row; index: number; children: ReactNode }) {
  const { className, ...attributes } = column.cellProps?.(row, index) ?? {};
  const Tag = column.rowHeader ? 'th' : 'td';
  return (
    <Tag scope={column.rowHeader ? 'row' : undefined} className={cellClass(column, className)} {...attributes}>
      {children}
    </Tag>
  );
}

/** The collapsed columns of one row, as label/value lines under the host cell's content. */
function CollapsedDetails<Row>({ columns, row, index }: { columns: ReadonlyArray<Column<Row>>; row: Row; index: number }) {
  return (
    <dl className="data-table-details">
      {columns.map((c) => {
        const { className, ...attributes } = c.cellProps?.(row, index) ?? {};
        return (
          <div key={c.key} className="data-table-detail" data-column={c.key}>
            <dt className={c.headerHidden ? 'visually-hidden' : undefined}>{c.label ?? c.header}</dt>
            <dd className={classNames(c.className, className)} {...(attributes as HTMLAttributes<HTMLElement>)}>
              {c.cell(row, index)}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

/** A click on a button, link or form control inside the row is that control's, not the row's. */
function isFromControl(target: EventTarget): boolean {
  return target instanceof Element && target.closest('button, a, input, select, textarea, label, summary') !== null;
}
