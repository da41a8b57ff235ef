import type { PositionedMention } from './mentions.js';
import { cellName, tableCells } from './tableRelations.js';

/**
 * A table of a change, thing by thing, with where each ran before and runs after:
 *
 *   | thing | before | after |
 *   | Kestrel | Heroku | fly.io, `kestrel-prod` |
 *   | Heron | AWS, EC2 | unchanged |
 *
 * says where each thing runs now: the provider or host the "after" cell opens with, or the
 * "before" cell's when the "after" one says nothing changed. The header is the table's first row.
 */

export interface ChangeTableRelation {
  subject: number;
  predicate: 'runs_on';
  object: number;
}

const THING_COLUMN = /^(?:services?|apps?|applications?|components?|systems?|what|thing|things|name|workloads?)$/i;
const BEFORE_COLUMN = /^(?:before|was|old|previously|from)$/i;
const AFTER_COLUMN = /^(?:after|now|new|current|currently|today|to)$/i;
/** An "after" cell that says the thing stayed where it was. */
const UNCHANGED = /^(?:unchanged|same|no change|as before|still|stays|stayed)\b/i;
/** What a thing runs on: a provider or a host (not a tool, a place or a person). */
const WHERE_TYPES = new Set(['organization', 'machine']);

/** Whether a header's columns are a thing and where it was before and after. */
export function isChangeTable(header: readonly string[]): boolean {
  return header.length >= 3 && THING_COLUMN.test(header[0]!) && header.some((h) => BEFORE_COLUMN.test(h)) && header.some((h) => AFTER_COLUMN.test(h));
}

export function findChangeTableRelations(body: string, mentions: PositionedMention[], header: readonly string[] | null): ChangeTableRelation[] {
  if (!header || !isChangeTable(header) || !body.trimStart().startsWith('|')) return [];
  const cells = tableCells(body);
  const before = cells[header.findIndex((h) => BEFORE_COLUMN.test(h))];
  const after = cells[header.findIndex((h) => AFTER_COLUMN.test(h))];
  if (!cells[0] || !before || !after) return [];
  const where = openingWhere(mentions, UNCHANGED.test(after.text) ? before : after);
  if (where === null) return [];
  // What a change moves is most often one's own service: a piece of work unless something typed it.
  const thing = cellName(body, cells[0], mentions, 'project');
  return thing === null || thing === where ? [] : [{ subject: thing, predicate: 'runs_on', object: where }];
}

/** The provider or host a cell opens with ("AWS, EC2", "GCP e2-small (since 2024)", "`kestrel-prod`"), or null. */
function openingWhere(mentions: PositionedMention[], cell: { text: string; start: number }): number | null {
  const at = cell.start + (cell.text.startsWith('`') ? 1 : 0);
  const i = mentions.findIndex((c) => c.start === at || c.start === cell.start);
  return i >= 0 && WHERE_TYPES.has(mentions[i]!.type) && mentions[i]!.certainty === 'strong' ? i : null;
}
