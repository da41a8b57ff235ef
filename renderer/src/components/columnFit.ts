/** What a table needs to know about a column to decide whether it fits. */
export interface FitColumn {
  key: string;
  /** 1 never collapses; higher numbers collapse first when the table is too narrow. */
  priority: number;
  /** The narrowest the column is still readable at, in CSS pixels. */
  minWidth: number;
}

export const DEFAULT_MIN_WIDTH = 80;

/** The columns that may collapse, in the order they do: highest priority number first, then the rightmost. */
export function collapseOrder(columns: readonly FitColumn[]): string[] {
  return columns
    .map((column, index) => ({ column, index }))
    .filter(({ column }) => column.priority > 1)
    .sort((a, b) => b.column.priority - a.column.priority || b.index - a.index)
    .map(({ column }) => column.key);
}

/**
 * How many columns (taken from `collapseOrder`) collapse so that the rest fit in `width`. The
 * widths are estimates: the table also collapses more when it measures an actual overflow.
 */
export function collapsedCountForWidth(columns: readonly FitColumn[], width: number): number {
  const order = collapseOrder(columns);
  const minWidth = new Map(columns.map((c) => [c.key, c.minWidth]));
  let needed = columns.reduce((sum, c) => sum + c.minWidth, 0);
  let count = 0;
  while (needed > width && count < order.length) {
    needed -= minWidth.get(order[count]!) ?? 0;
    count += 1;
  }
  return count;
}
