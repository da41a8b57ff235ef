import type { EntityType } from '../contract/index.js';
import { knownNameType } from './knownNames.js';
import { rememberedByWord } from './wordMemo.js';

/**
 * What a name's own words say it is, whatever surrounds it: "Tempelhofer Feld", "Rua Augusta",
 * "Kastanienallee" are places; "Tidewater Analytics", "Acme Inc", "Lindenhof School" are
 * organisations. Only head words that rarely end a person's or a product's name count.
 */
export function typeFromShape(label: string): EntityType | null {
  return shapeType(label);
}
const shapeType = rememberedByWord((label): EntityType | null => {
  const words = label.split(' ');
  const last = words[words.length - 1]!;
  if (words.length >= 2) {
    if (ORGANISATION_HEADS.has(last.replace(/\.$/, ''))) return 'organization';
    if (BUILDING_HEADS.has(last.toLowerCase())) return 'place';
    // "Priya Park", "Anna Hill": after a known first name these words are surnames.
    if (knownNameType(label) === 'person') return null;
    if (PLACE_HEADS.has(last.toLowerCase()) || PLACE_OPENERS.has(words[0]!.toLowerCase())) return 'place';
  }
  // German and Dutch street names are one word: "Kastanienallee", "Torstraße", "Prinsengracht".
  if (STREET_SUFFIX.test(last)) return 'place';
  return null;
});

/** Case-sensitive: "Acme Labs", not "the labs". */
const ORGANISATION_HEADS = new Set(
  `Inc GmbH Ltd LLC Labs Corp Corporation AG SA BV NV Co Company Analytics Systems Technologies Software Group Partners Studio Studios
  Bank Capital Ventures Foundation Institute University College School Academy Kita Kindergarten Daycare Club FC Records Agency
  Consulting Solutions Council Ministry Association Society Orchestra Choir Collective Union Airlines Airways Insurance Trust
  League United Clinic`.split(/\s+/),
);

/** The last word of a building's or a street's name, never a surname ("Elizabeth House", "Ngong Road", "Kahawa Corner"). */
const BUILDING_HEADS = new Set(
  `house street road avenue boulevard blvd square gardens station airport museum gallery cathedral stadium theatre theater cinema café cafe
  restaurant bakery hotel hostel grounds corner`.split(/\s+/),
);

/** The last word of a place's name that is also a surname ("Tempelhofer Feld", "Union Square", but "Priya Park"). */
const PLACE_HEADS = new Set(
  `st rd ave lane park parque garden feld platz straße strasse allee weg gasse damm ufer markt bridge beach lake river bay island islands
  mountain mountains hill hills valley forest market church castle palace tower arena bar pub bistro zoo quarter district village harbour
  harbor pier coast`.split(/\s+/),
);

/** The first word of a place's name ("Lake Como", "Rua Augusta", "Mount Fuji"). */
const PLACE_OPENERS = new Set('lake mount mt rua calle via piazza plaza praça place rue avenida avenue café cafe museu museo musée casa centro largo'.split(' '));

const STREET_SUFFIX = /^\p{Lu}\p{Ll}{2,}(?:straße|strasse|allee|platz|damm|gasse|gracht|ufer)$/u;
