import type Database from 'better-sqlite3';
import { PersonNames } from './personNames.js';

/** Types a name can turn out to be; tags, URLs and paths are never names. */
export const NAMED_TYPES = "('person','project','organization','place','machine','tool','concept','identifier')";

type Candidate = readonly [id: number, type: string];

/**
 * The writer's name lookups, remembered while the graph under them stays as it was: a first
 * extraction resolves ~90 mentions per note and asks the same few thousand names again and
 * again (93 % of the lookups at 2,000 notes), each a SQL probe of several microseconds.
 *
 * Whoever changes entities, aliases or the rules' mentions says so: a new entity forgets its
 * key (and, for a full name, the first names), a rules mention marks its entity as named, and
 * anything else (a retype, a merge, a forgotten file, an alias dropped, the update's settle)
 * forgets everything. "Named by the rules" (an entity with a mention whose by_model = 0) is
 * answered per entity, not inside the probes, so mentions the writer holds back until later
 * count as written.
 */
export class EntityLookups {
  /** Per key: the named-type entities of that key by id, and the entity of each type asked for. */
  private readonly byKey = new Map<string, { candidates?: Candidate[]; byType?: Map<string, number | undefined> }>();
  /** Per alias key: the named-type entities holding it. */
  private readonly byAlias = new Map<string, Candidate[]>();
  private readonly firstNames = new Map<string, number | null>();
  /**
   * Whether an entity has a mention by the rules (graph_mentions.by_model = 0): the rules' name
   * lookups see only such entities, so nothing the rules write hangs on a name only the chat
   * model gave (it would outlive the model's items).
   */
  private readonly named = new Map<number, boolean>();
  private readonly people: PersonNames;
  private readonly stmts;

  constructor(
    db: Database.Database,
    /** Entities named by mentions the writer holds back (not in the table yet). */
    private readonly heldNamed: (id: number) => boolean = () => false,
  ) {
    this.people = new PersonNames(db);
    this.stmts = {
      // Rows of one key come by id (the index on key holds the rowid); `+type` keeps the planner on that index.
      candidates: db.prepare(`SELECT id, type FROM graph_entities WHERE key = ? AND +type IN ${NAMED_TYPES} ORDER BY id`).raw(),
      aliasCandidates: db.prepare(`SELECT e.id, e.type FROM graph_aliases a JOIN graph_entities e ON e.id = a.entity_id WHERE a.key = ? AND e.type IN ${NAMED_TYPES}`).raw(),
      byTypeKey: db.prepare('SELECT id FROM graph_entities WHERE type = ? AND key = ?').pluck(),
      namedByRules: db.prepare('SELECT 1 FROM graph_mentions WHERE entity_id = ? AND by_model = 0 LIMIT 1').pluck(),
    };
  }

  /** The entity of this type and key (a unique index), if any. */
  byTypeKey(type: string, key: string): number | undefined {
    const memo = this.memoOf(key);
    memo.byType ??= new Map();
    if (memo.byType.has(type)) return memo.byType.get(type);
    const id = this.stmts.byTypeKey.get(type, key) as number | undefined;
    memo.byType.set(type, id);
    return id;
  }

  /** The rules-named entity of this key: a typed one before a concept, then the oldest. */
  rulesNamedByKey(key: string): number | undefined {
    return this.firstNamed(this.candidatesOf(key));
  }

  /** The rules-named entity holding this alias: a typed one before a concept, then the oldest. */
  rulesNamedByAlias(key: string): number | undefined {
    let candidates = this.byAlias.get(key);
    if (!candidates) this.byAlias.set(key, (candidates = this.stmts.aliasCandidates.all(key) as Candidate[]));
    return this.firstNamed(candidates);
  }

  /** The rules-named concept of this key. */
  rulesConceptByKey(key: string): number | undefined {
    return this.candidatesOf(key).find(([id, type]) => type === 'concept' && this.isNamed(id))?.[0];
  }

  /** The oldest entity of this key typed as something other than a concept. */
  namedOtherType(key: string): number | undefined {
    return this.candidatesOf(key).find(([, type]) => type !== 'concept')?.[0];
  }

  /** The only person whose first name is `key` (personNames.ts). */
  byFirstName(key: string): number | null {
    if (this.firstNames.has(key)) return this.firstNames.get(key)!;
    const id = this.people.byFirstName(key);
    this.firstNames.set(key, id);
    return id;
  }

  /** A new entity of this key (its first mention marks it named). */
  created(key: string, type: string): void {
    this.byKey.delete(key);
    // A person's full name may make a first name ambiguous, or unique.
    if (type === 'person' && key.includes(' ')) this.firstNames.clear();
  }

  /** An entity got a mention by the rules. */
  namedByRules(id: number): void {
    this.named.set(id, true);
  }

  /**
   * An entity of this key changed type: only what was remembered for its key, for aliases, and
   * (for a full name) for first names can change; retypes are frequent in a first extraction
   * (a name first seen untyped), and forgetting everything asked every name again after each.
   */
  retyped(key: string): void {
    this.byKey.delete(key);
    this.byAlias.clear();
    if (key.includes(' ')) this.firstNames.clear();
  }

  /** An alias was added. */
  aliasAdded(): void {
    this.byAlias.clear();
  }

  /** Entities were retyped, merged, deleted or lost mentions or aliases: nothing remembered holds. */
  forgetAll(): void {
    this.byKey.clear();
    this.byAlias.clear();
    this.firstNames.clear();
    this.named.clear();
  }

  private memoOf(key: string): { candidates?: Candidate[]; byType?: Map<string, number | undefined> } {
    let memo = this.byKey.get(key);
    if (!memo) this.byKey.set(key, (memo = {}));
    return memo;
  }

  private candidatesOf(key: string): Candidate[] {
    const memo = this.memoOf(key);
    return (memo.candidates ??= this.stmts.candidates.all(key) as Candidate[]);
  }

  /** As `ORDER BY type = 'concept', id LIMIT 1` among the rules-named candidates. */
  private firstNamed(candidates: readonly Candidate[]): number | undefined {
    let concept: number | undefined;
    let typed: number | undefined;
    for (const [id, type] of candidates) {
      if (type === 'concept' ? concept !== undefined && concept < id : typed !== undefined && typed < id) continue;
      if (!this.isNamed(id)) continue;
      if (type === 'concept') concept = id;
      else typed = id;
    }
    return typed ?? concept;
  }

  private isNamed(id: number): boolean {
    if (this.heldNamed(id)) return true;
    let named = this.named.get(id);
    if (named === undefined) this.named.set(id, (named = this.stmts.namedByRules.get(id) !== undefined));
    return named;
  }
}
