import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { collapseOrder, collapsedCountForWidth } from '../src/components/columnFit.js';
import { DataTable, type Column, type DataTableProps } from '../src/components/DataTable.js';
import { EmptyState } from '../src/components/EmptyState.js';

interface Fruit {
  id: string;
  name: string;
  colour: string;
  origin: string;
  grams: number;
}

const FRUITS: Fruit[] = Array.from({ length: 30 }, (_, i) => ({ id: `f${i}`, name: `fruit ${i}`, colour: `colour ${i}`, origin: `origin ${i}`, grams: i * 10 }));

const COLUMNS: Array<Column<Fruit>> = [
  { key: 'name', header: 'Name', minWidth: 200, cell: (f) => f.name },
  { key: 'colour', header: 'Colour', priority: 2, minWidth: 150, cellProps: () => ({ 'data-testid': 'fruit-colour' }), cell: (f) => f.colour },
  { key: 'origin', header: 'Origin', priority: 3, minWidth: 150, cell: (f) => f.origin },
  { key: 'grams', header: 'Grams', align: 'end', minWidth: 80, cell: (f) => f.grams },
  { key: 'actions', header: 'Actions', headerHidden: true, priority: 2, minWidth: 100, cell: () => createElement('button', { type: 'button' }, 'Eat') },
];

const render = (props: Partial<DataTableProps<Fruit>> = {}): string =>
  renderToStaticMarkup(
    createElement(DataTable<Fruit>, {
      columns: COLUMNS,
      rows: FRUITS.slice(0, 3),
      rowKey: (f) => f.id,
      rowProps: (f) => ({ 'data-testid': 'fruit-row', 'data-id': f.id }),
      ...props,
    }),
  );

const headers = (html: string): string[] => [...html.matchAll(/<th scope="col"[^>]*>(.*?)<\/th>/g)].map(([, text]) => text!.replace(/<[^>]+>/g, ''));
const bodyRows = (html: string): string[] => [...html.matchAll(/<tr data-testid="fruit-row"[^>]*>(.*?)<\/tr>/g)].map(([row]) => row);

describe('DataTable', () => {
  it('renders a real table: header cells with scope=col, a sticky header, one row per item with its attributes', () => {
    const html = render({ testId: 'fruits', className: 'fruit-table' });
    expect(html).toMatch(/^<table class="data-table data-table-sticky fruit-table" data-testid="fruits">/);
    expect(html).toContain('<thead><tr><th scope="col">Name</th>');
    expect(headers(html)).toEqual(['Name', 'Colour', 'Origin', 'Grams', 'Actions']);
    // A header for screen readers only, and a right-aligned number column.
    expect(html).toContain('<th scope="col"><span class="visually-hidden">Actions</span></th>');
    expect(html).toContain('<th scope="col" class="num">Grams</th>');
    expect(html).toContain('<td class="num">10</td>');
    // Row attributes come first and unchanged; a cell's own attributes stay on the cell.
    expect(bodyRows(html)).toHaveLength(3);
    expect(html).toContain('<tr data-testid="fruit-row" data-id="f1"><td>fruit 1</td><td data-testid="fruit-colour">colour 1</td>');
    expect(html).not.toContain('data-collapsed');
  });

  it('can do without the sticky header and show every header to screen readers only', () => {
    const html = render({ stickyHeader: false, headersHidden: true });
    expect(html).toMatch(/^<table class="data-table">/);
    expect(html).toContain('<thead class="visually-hidden">');
  });

  it('marks the selected row and names rows with row headers', () => {
    const columns: Array<Column<Fruit>> = [{ ...COLUMNS[0]!, rowHeader: true }, COLUMNS[3]!];
    const html = render({ columns, selectedKey: 'f2' });
    expect(html).toContain('<tr data-testid="fruit-row" data-id="f2" class="is-selected" aria-current="true"><th scope="row">fruit 2</th>');
    expect(html).toContain('<tr data-testid="fruit-row" data-id="f0"><th scope="row">fruit 0</th>');
    // Clickable rows say so.
    expect(render({ columns, onRowClick: () => undefined })).toContain('<tr data-testid="fruit-row" data-id="f0" class="is-clickable">');
  });

  it('moves low-priority columns into the detail line of each row when the table is too narrow, never the priority-1 ones', () => {
    // 680 px of columns in 500: the priority-3 column goes first, then the rightmost priority-2 one.
    const html = render({ initialWidth: 500 });
    expect(headers(html)).toEqual(['Name', 'Colour', 'Grams']);
    expect(html).toContain('data-collapsed="origin actions"');
    const row = bodyRows(html)[1]!;
    // In the first column's cell, labelled; the actions keep a hidden label.
    expect(row).toContain(
      '<td>fruit 1<dl class="data-table-details"><div class="data-table-detail" data-column="origin"><dt>Origin</dt><dd>origin 1</dd></div>' +
        '<div class="data-table-detail" data-column="actions"><dt class="visually-hidden">Actions</dt><dd><button type="button">Eat</button></dd></div></dl></td>',
    );
    expect(row.match(/<td/g)).toHaveLength(3);

    // Narrower still: every collapsible column goes, the cell's test id moves with it; Name and Grams stay however narrow.
    const narrow = render({ initialWidth: 100 });
    expect(headers(narrow)).toEqual(['Name', 'Grams']);
    expect(bodyRows(narrow)[0]).toContain('<dt>Colour</dt><dd data-testid="fruit-colour">colour 0</dd>');
    // Wide enough: nothing collapses.
    expect(headers(render({ initialWidth: 680 }))).toHaveLength(5);
  });

  it('puts the collapsed columns into the column it is told to', () => {
    const html = render({ initialWidth: 300, detailsIn: 'grams' });
    expect(bodyRows(html)[0]).toMatch(/<td>fruit 0<\/td><td class="num">0<dl class="data-table-details">/);
  });

  it('shows the first page of a long list with "Show more"', () => {
    const html = render({ rows: FRUITS, pageSize: 10, noun: 'fruits', moreTestId: 'fruits-more' });
    expect(bodyRows(html)).toHaveLength(10);
    expect(html).toContain('<span>10 of 30 fruits</span>');
    expect(html).toMatch(/<button type="button" class="button button-small" data-testid="fruits-more">Show more<\/button>/);
    // Short lists have no pager.
    expect(render({ rows: FRUITS.slice(0, 10), pageSize: 10 })).not.toContain('Show more');
  });

  it('shows the empty state instead of a table when there are no rows', () => {
    const html = render({ rows: [], empty: createElement(EmptyState, { testId: 'no-fruit' }, 'No fruit yet.') });
    expect(html).toBe('<div class="empty-state" data-testid="no-fruit"><p class="empty-state-text">No fruit yet.</p></div>');
    expect(render({ rows: [] })).toBe('');
  });
});

describe('column fit', () => {
  const fit = [
    { key: 'a', priority: 1, minWidth: 100 },
    { key: 'b', priority: 2, minWidth: 100 },
    { key: 'c', priority: 3, minWidth: 100 },
    { key: 'd', priority: 2, minWidth: 100 },
  ];

  it('collapses the highest priority number first, then the rightmost; priority 1 never', () => {
    expect(collapseOrder(fit)).toEqual(['c', 'd', 'b']);
  });

  it('collapses as few columns as the width needs', () => {
    expect(collapsedCountForWidth(fit, 400)).toBe(0);
    expect(collapsedCountForWidth(fit, 399)).toBe(1);
    expect(collapsedCountForWidth(fit, 200)).toBe(2);
    expect(collapsedCountForWidth(fit, 10)).toBe(3);
  });
});
