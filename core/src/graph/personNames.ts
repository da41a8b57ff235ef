import type Database from 'better-sqlite3';

/**
 * Finds the one person a short name means: "Dana" or "@dana" is Dana Okafor when the graph
 * knows exactly one person of that first name; "@sreyes" is Sam Reyes by initial and surname.
 * Two people sharing the name: no answer (never merge on a guess).
 */
export class PersonNames {
  private readonly byPrefix;

  constructor(db: Database.Database) {
    // Full names (two or more words) whose key starts in the range: an index range on (type, key).
    this.byPrefix = db.prepare("SELECT id, key FROM graph_entities WHERE type = 'person' AND key >= ? AND key < ? AND key LIKE '% %' LIMIT 50").raw();
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
