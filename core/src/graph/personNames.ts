import type Database from 'better-sqlite3';

/**
 * Finds the one person a short name means: "Dana" or "@dana" is Dana Okafor when the graph
 * knows exactly one person of that first name; "@sreyes" is Sam Reyes by initial and surname.
 * Two people sharing the name: no answer (never merge on a guess).
 */
export class PersonNames {
  private readonly byPrefix;

  private readonly conceptsByPrefix;

  constructor(db: Database.Database) {
    // Full names (two or more words) whose key starts in the range: an index range on (type, key).
    this.byPrefix = db.prepare("SELECT id, key FROM graph_entities WHERE type = 'person' AND key >= ? AND key < ? AND key LIKE '% %' LIMIT 50").raw();
    this.conceptsByPrefix = db.prepare("SELECT id, key, label FROM graph_entities WHERE type = 'concept' AND key >= ? AND key < ? AND key LIKE '% %' AND key NOT LIKE '% % %' LIMIT 50").raw();
  }

  /**
   * The only untyped two-word name that starts with this first name and reads as a person's
   * ("Priya Natarajan" once "Priya" is known to be a person): null when none or several.
   */
  untypedFullName(key: string): number | null {
    if (!key || /\s/.test(key) || this.byFirstName(key) !== null) return null;
    const rows = (this.conceptsByPrefix.all(`${key} `, `${key}!`) as Array<[number, string, string]>).filter(([, , label]) => looksLikeFullName(label));
    return rows.length === 1 ? rows[0]![0] : null;
  }

  /** The only person whose first name is `key` (one word, folded). */
  byFirstName(key: string): number | null {
    if (!key || /\s/.test(key)) return null;
    const rows = this.byPrefix.all(`${key} `, `${key}!`) as Array<[number, string]>;
    return rows.length === 1 ? rows[0]![0] : null;
  }

  /** The only person a handle (`@dana`, `@sreyes`, `@mayc`, `@dana.okafor`) fits. */
  byHandle(handleKey: string): number | null {
    const h = handleKey.replace(/^@/, '');
    if (h.length < 2) return null;
    const first = h[0]!;
    const rows = this.byPrefix.all(first, String.fromCharCode(first.charCodeAt(0) + 1)) as Array<[number, string]>;
    const fits = rows.filter(([, key]) => handleForms(key).has(h));
    return fits.length === 1 ? fits[0]![0] : null;
  }
}

/** The handles people commonly take from their name "first last". */
export function handleForms(fullKey: string): Set<string> {
  const parts = fullKey.split(' ');
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  return new Set([first, `${first}${last}`, `${first}.${last}`, `${first}_${last}`, `${first}-${last}`, `${first[0]}${last}`, `${first}${last[0]}`, last]);
}

/** "Priya Natarajan", "Tomás Ferreira": two capitalised words, letters only (not "Berlin Gophers"-proof, hence only with a known first name). */
export function looksLikeFullName(label: string): boolean {
  return /^\p{Lu}\p{Ll}+(?:[-'’]\p{Lu}?\p{Ll}+)? \p{Lu}\p{Ll}+(?:[-'’]\p{Lu}?\p{Ll}+)?$/u.test(label);
}
