import { STOPWORDS } from '../platform/text/stopwords.js';
import { isFurnitureLabel } from './furniture.js';
import type { PositionedMention } from './mentions.js';

/**
 * A table whose first column lists services and another names the host they run on:
 *
 *   | service | host | since |
 *   | Jellyfin | twiga | 3 Oct |
 *
 * says, row by row, what runs where. The header is the table's first row (extractFile.ts keeps it).
 */

export interface TableRelation {
  subject: number;
  predicate: 'runs_on';
  object: number;
}

const THING_COLUMN = /^(?:services?|apps?|applications?|containers?|what|thing|things|name|workloads?)$/i;
const HOST_COLUMN = /^(?:hosts?|machines?|servers?|box|boxes|nodes?|vms?|runs on|where)$/i;
/** A cell that is a name: up to three words (a host in backticks too), no sentence. */
const NAME_CELL = /^`?[\p{L}][\p{L}\p{N}_.'’-]*(?:[ \t]+[\p{L}\p{N}][\p{L}\p{N}_.'’-]*){0,2}`?$/u;

/** The cells of a table row with their offsets in `row`. */
export function tableCells(row: string): Array<{ text: string; start: number }> {
  const cells: Array<{ text: string; start: number }> = [];
  const open = row.indexOf('|');
  if (open < 0) return cells;
  let start = open + 1;
  for (let i = start; i <= row.length; i++) {
    if (i === row.length || row[i] === '|') {
      const raw = row.slice(start, i);
      const lead = raw.length - raw.trimStart().length;
      if (i < row.length || raw.trim()) cells.push({ text: raw.trim(), start: start + lead });
      start = i + 1;
    }
  }
  return cells;
}

/** Whether a header's columns say what runs where (the thing first). */
export function isHostTable(header: readonly string[]): boolean {
  return header.length >= 2 && THING_COLUMN.test(header[0]!) && header.slice(1).some((h) => HOST_COLUMN.test(h));
}

export function findTableRelations(body: string, mentions: PositionedMention[], header: readonly string[] | null): TableRelation[] {
  if (!header || !isHostTable(header) || !body.trimStart().startsWith('|')) return [];
  const cells = tableCells(body);
  const hostColumn = header.findIndex((h, i) => i > 0 && HOST_COLUMN.test(h));
  const thing = cells[0] && cellName(body, cells[0], mentions, 'tool');
  const host = cells[hostColumn] && cellName(body, cells[hostColumn]!, mentions, 'machine');
  if (thing === undefined || host === undefined || thing === null || host === null || thing === host) return [];
  return [{ subject: thing, predicate: 'runs_on', object: host }];
}

/**
 * The mention a cell names as a whole: the one spanning it, one inside it widened to the cell
 * ("Home Assistant" where the name rules read "Assistant"), or a new one of `type`.
 */
export function cellName(body: string, cell: { text: string; start: number }, mentions: PositionedMention[], type: 'tool' | 'machine' | 'project'): number | null {
  if (!NAME_CELL.test(cell.text) || isFurnitureLabel(cell.text) || STOPWORDS.has(cell.text.toLowerCase())) return null;
  const end = cell.start + cell.text.length;
  const label = cell.text.replace(/^`|`$/g, '');
  const inside = mentions.map((c, i) => ({ c, i })).filter(({ c }) => c.start >= cell.start && c.end <= end);
  if (inside.length > 1) return null;
  if (inside.length === 1) {
    const { c, i } = inside[0]!;
    if (c.label !== label) Object.assign(c, { label, start: cell.start, end });
    if (c.certainty === 'tentative' || c.type === 'concept' || c.type === 'identifier') Object.assign(c, { type: c.type === 'concept' || c.type === 'identifier' ? type : c.type, certainty: 'strong' });
    return i;
  }
  mentions.push({ type, label, certainty: 'strong', start: cell.start, end });
  return mentions.length - 1;
}
