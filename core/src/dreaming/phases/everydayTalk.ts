/**
 * Everyday small talk — food, coffee, weather, the gym, the commute, office amenities — is what a
 * day was like, not what an agent needs at the start of a session. A line is small talk when
 * such a word carries it (lower case, or the line's first word: "Quarry Coffee" mid-sentence is
 * a client's name) and it names nothing a person works with: no host, path, code, address,
 * amount of money or version, and is about no client, contact or project. ("Printer" is left
 * out: for a designer it is the print shop.)
 */

const EVERYDAY = new RegExp(
  '(?<!\\p{L})(?:' +
    [
      // food and drink
      'lunch(?:es)?', 'dinner', 'breakfast', 'brunch', 'coffee', 'espresso', 'tea', 'cake', 'bakery', 'buns?', 'pastr(?:y|ies)', 'pastéis',
      'soup', 'canteen', 'ramen', 'sushi', 'falafel', 'pizza', 'burgers?', 'noodles?', 'tacos?', 'restaurant', 'café', 'cafe', 'drinks',
      'beers?', 'wine', 'snacks?', 'croissants?', 'donuts?', 'doughnuts?', 'cookies?', 'sandwich(?:es)?', 'salad',
      // weather
      'weather', 'rain(?:ed|ing|y)?', 'sunny', 'snow(?:ed|ing)?', 'heatwave', 'windy', 'foggy',
      // leisure and life
      'gym', 'climbing', 'cinema', 'movie', 'film night', 'concert', 'birthday', 'party', 'weekend plans', 'hike', 'football',
      'monstera', 'plants?', 'fern',
      // the building and the commute
      'coffee machine', 'parking', 'fire alarm', 'elevator', 'lift', 'fridge', 'microwave', 'tram', 'traffic', 'commute',
    ].join('|') +
    ')(?!\\p{L})',
  'iu',
);

/** What makes a line worth keeping even when it mentions lunch: something a person works with. */
const WORK_ANCHOR = /\b(?:contact|clients?|customers?|project|invoices?|contract|rebrand|deadline)\b|`|https?:\/\/|\S+@\S+\.\S+|\b[\w-]+\.(?:internal|local|com|io|net|org|dev|md|ya?ml|json|ts|py|sql)\b|(?:^|\s)\/[\w.-]+\/|\b\w+_\w+\b|\b\d{2,5}\s?(?:eur|usd|gbp|chf|€|\$)|[€$£]\s?\d|\bv?\d+\.\d+(?:\.\d+)?\b|\bport \d+/i;

/** The small-talk word a line rests on, or null when it is not small talk. */
export function everydayTalkWord(text: string): string | null {
  if (WORK_ANCHOR.test(text)) return null;
  // An aside in brackets does not carry the line: "Sat practice -> cafeteria from now on (wrestling has gym B)".
  const words = text.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').replace(/\([^()]*\)/g, ' ');
  for (const match of words.matchAll(new RegExp(EVERYDAY.source, 'giu'))) {
    const word = match[0];
    const atStart = match.index === 0;
    // A capitalised word inside the sentence is part of a name ("Quarry Coffee", "Tea Tree Labs").
    if (!atStart && word[0] !== word[0]!.toLowerCase()) continue;
    return word.toLowerCase();
  }
  return null;
}
