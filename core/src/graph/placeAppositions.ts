import type { PositionedMention } from './mentions.js';
import { isPlaceLike } from './placeGroups.js';

/**
 * Where a thing is, said by an apposition right after its name: "Pesaflow, the payments co in
 * Westlands" (an organisation described by its kind, then its place), "Elizabeth — a
 * neighbourhood in Charlotte", "Nyali, a suburb of Mombasa" (a place described as part of
 * another). The kind word must come right before "in"/"of": "Pesaflow, the team we met in
 * Lisbon" says where they met, not where Pesaflow is.
 */

export interface AppositionPlaceRelation {
  subject: number;
  predicate: 'located_in';
  object: number;
}

/** Kinds of organisation or venue, which have an address. */
const ORGANISATION_KIND = String.raw`(?:company|co|firm|startup|start-up|agency|bank|shop|store|studio|school|clinic|hospital|lab|labs|office|café|cafe|restaurant|bar|hotel|gym|club|venue|bakery|charity|nonprofit|non-profit|consultancy|fintech|telco)`;
/** Kinds of place that lie inside another. */
const PLACE_KIND = String.raw`(?:neighbourhood|neighborhood|suburb|district|borough|quarter|area|village|town|city|estate|county|region|province|state|island)`;
/** ", the payments co in ", " (a small agency based in ": up to three describing words before the kind. */
const ORGANISATION_APPOSITION = new RegExp(String.raw`^[ \t]*(?:,|—|–|\()[ \t]*(?:the|a|an|our|my)[ \t]+(?:[\p{Ll}\p{N}/-]+[ \t]+){0,3}${ORGANISATION_KIND}[ \t]+(?:(?:based|located)[ \t]+)?in[ \t]+(?:the[ \t]+)?`, 'u');
/** " — neighbourhood in ", ", a suburb of ", " (a small town near" is not one: in or of only. */
const PLACE_APPOSITION = new RegExp(String.raw`^[ \t]*(?:,|—|–|\(|-)[ \t]*(?:(?:the|a|an)[ \t]+)?(?:[\p{Ll}-]+[ \t]+){0,2}${PLACE_KIND}[ \t]+(?:in|of)[ \t]+(?:the[ \t]+)?`, 'u');
/** Cheap test first: a kind word followed by in/of. */
const HINT = new RegExp(String.raw`\b(?:${ORGANISATION_KIND}|${PLACE_KIND})[ \t]+(?:(?:based|located)[ \t]+)?(?:in|of)\b`, 'u');

export function findAppositionPlaces(body: string, mentions: PositionedMention[]): AppositionPlaceRelation[] {
  if (!HINT.test(body)) return [];
  const found: AppositionPlaceRelation[] = [];
  for (let i = 0; i < mentions.length; i++) {
    const thing = mentions[i]!;
    if (thing.start < 0 || thing.certainty === 'tentative') continue;
    const after = body.slice(thing.end, thing.end + 80);
    const organisation = thing.type === 'organization' ? ORGANISATION_APPOSITION.exec(after) : null;
    // A place, a name nothing typed, or a first name by the list alone ("Elizabeth") may be a part of a place.
    const part = !organisation && (thing.type === 'place' || thing.type === 'concept' || (thing.type === 'person' && thing.byNameList)) ? PLACE_APPOSITION.exec(after) : null;
    const gap = organisation ?? part;
    if (!gap) continue;
    const where = mentions.findIndex((c) => c.start === thing.end + gap[0].length);
    if (where < 0 || where === i) continue;
    const w = mentions[where]!;
    if (organisation && !isPlaceLike(w)) continue;
    // After "neighbourhood in" a name is a place whatever a list of first names made of it ("in Charlotte").
    if (part && !(isPlaceLike(w) || w.certainty !== 'strong' || w.byNameList || w.type === 'person')) continue;
    if (part && thing.type !== 'place') Object.assign(thing, { type: 'place', certainty: 'strong' });
    if (w.type !== 'place') Object.assign(w, { type: 'place', certainty: 'strong' });
    found.push({ subject: i, predicate: 'located_in', object: where });
  }
  return found;
}
