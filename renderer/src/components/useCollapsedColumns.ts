import { useCallback, useLayoutEffect, useMemo, useState } from 'react';
import { collapseOrder, collapsedCountForWidth, type FitColumn } from './columnFit.js';

/** The width inside an element's padding: what a 100%-wide table may take. */
function contentWidth(element: HTMLElement): number {
  const style = getComputedStyle(element);
  return element.clientWidth - (parseFloat(style.paddingLeft) || 0) - (parseFloat(style.paddingRight) || 0);
}

export interface CollapsedColumns {
  /** Keys of the columns that do not fit. */
  collapsed: ReadonlySet<string>;
  /** Goes on the `<table>`: its parent is the container measured. */
  tableRef(table: HTMLTableElement | null): void;
}

/**
 * Which low-priority columns collapse so the table fits its container: first by the columns'
 * declared widths, then one more for as long as the laid-out table is still wider than its
 * container (long words, no-wrap cells). Runs before paint, so nothing is drawn clipped.
 * `initialWidth` stands in for the container until it is measured (server rendering, tests).
 */
export function useCollapsedColumns(columns: readonly FitColumn[], initialWidth?: number): CollapsedColumns {
  const signature = columns.map((c) => `${c.key}:${c.priority}:${c.minWidth}`).join('|');
  // Keyed by what the columns mean, not by the array (callers build it on every render).
  const order = useMemo(() => collapseOrder(columns), [signature]);
  const [table, setTable] = useState<HTMLTableElement | null>(null);
  const [width, setWidth] = useState<number | null>(initialWidth ?? null);
  // Collapsed beyond the estimate because the table measured wider than its container.
  const [extra, setExtra] = useState(0);
  const estimate = width === null ? 0 : collapsedCountForWidth(columns, width);
  const count = Math.min(order.length, estimate + extra);
  const container = table?.parentElement ?? null;

  useLayoutEffect(() => {
    if (!container || order.length === 0) return;
    let measured: number | null = null;
    const measure = (): void => {
      const next = Math.round(contentWidth(container));
      if (next === measured) return;
      measured = next;
      // A new width starts again from the estimate.
      setExtra(0);
      setWidth(next);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(container);
    return () => observer.disconnect();
  }, [container, order]);

  useLayoutEffect(() => {
    if (!table || !container || count >= order.length) return;
    if (table.offsetWidth > contentWidth(container) + 1) setExtra((n) => n + 1);
  });

  const collapsed = useMemo(() => new Set(order.slice(0, count)), [order, count]);
  return { collapsed, tableRef: useCallback((element: HTMLTableElement | null) => setTable(element), []) };
}
