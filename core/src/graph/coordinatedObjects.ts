import type { EntityType } from '../contract/index.js';
import type { PositionedMention } from './mentions.js';

/**
 * The names coordinated after a first verb's object: "I work on ledgerd and payoutsvc",
 * "occasional work on payoutsvc, billing-ui and the internal `qf` CLI". Each item is one name,
 * maybe after "the" and describing lowercase words, maybe before a kind word ("CLI", "repo");
 * an item that is more than that ("and the rest of it", "and then lunch") ends the list.
 */

/** Between items: a comma (maybe with "and"), "and", "&". */
const SEPARATOR = /^(?:[ \t]*,[ \t]*(?:and[ \t]+)?|[ \t]+(?:and|&)[ \t]+)/;
/** Before an item's name: "the", "our", and up to two describing words ("the internal", "our old"). */
const ITEM_OPENING = /^(?:(?:the|our|my)[ \t]+)?(?:(?:internal|old|new|legacy|shared|main|small|public|private)[ \t]+){0,2}/;
/** After an item's name: a kind word, then the item's end. */
const ITEM_END = /^\x60?(?:[ \t]+(?:CLI|cli|repo|repository|service|app|tool|library|lib|site|project|bot|API|api))?(?=[ \t]*(?:[,.;:!?)]|$|[ \t](?:and|&)[ \t]))/;
const MAX_ITEMS = 8;

export function coordinatedObjects(
  body: string,
  first: PositionedMention,
  mentions: PositionedMention[],
  objectAt: (start: number, type: EntityType, capitalisedOnly: boolean) => number | null,
  type: EntityType,
): number[] {
  const found: number[] = [];
  let end = first.end;
  for (let k = 0; k < MAX_ITEMS; k++) {
    const rest = body.slice(end, end + 200);
    const separator = SEPARATOR.exec(rest.replace(/^\x60/, ''));
    if (!separator) break;
    const afterSeparator = end + (rest.startsWith('\x60') ? 1 : 0) + separator[0].length;
    const opening = ITEM_OPENING.exec(body.slice(afterSeparator, afterSeparator + 60))![0];
    const start = afterSeparator + opening.length;
    const count = mentions.length;
    const item = objectAt(start, type, false);
    if (item === null) break;
    const m = mentions[item]!;
    if (m.type === 'person' || m.type === 'place' || !ITEM_END.test(body.slice(m.end, m.end + 24))) {
      mentions.length = count; // a phrase read for the item names nothing after all
      break;
    }
    // A code token worked on or owned ("the internal `qf` CLI") is a piece of work, as a plain name there is.
    if (m.certainty !== 'strong' && (m.type === 'identifier' || m.type === 'concept')) Object.assign(m, { type, certainty: 'strong' });
    found.push(item);
    end = m.end + (ITEM_END.exec(body.slice(m.end, m.end + 24))?.[0].length ?? 0);
  }
  return found;
}
