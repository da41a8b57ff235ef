import type Database from 'better-sqlite3';
import type { EntityType, SourceTool } from '../contract/index.js';
import { AliasBook } from './aliases/aliasBook.js';
import { CLAIM_BY_IDENTITY, CLAIM_IDENTITY } from './claimIdentity.js';
import { Cooccurrence, MAX_COOCCURRING } from './cooccurrence.js';
import { EntityLookups, NAMED_TYPES } from './entityLookups.js';
import { HeldRows, insertRows, rowsInsert } from './heldRows.js';
import { labelKey } from './labelKey.js';
import { entriesOfPath } from './pathEntries.js';
import { handleForms, looksLikeFullName, PersonNames } from './personNames.js';
import { ambiguousPrefixOwner } from './shortOrganisationNames.js';
import { MENTIONED_WITH, type EntityMention, type EntryProvenance, type ExtractedEntry, type TypeVote } from './types.js';
import { voteCode } from './workspaceTypes.js';

/**
 * `key = ? AND +type IN …`: the unary + keeps the planner on the index by key (one probe)
 * rather than probing (type, key) once per listed type; a name lookup runs for every mention.
 */

/** Where one entry's evidence points. */
export interface EvidenceSite extends EntryProvenance {
  path: string;
  tool: SourceTool;
}

/**
 * Writes extracted entries into the graph tables: matches entities by type and key (or
 * alias), merges entities an alias joins, records each entry once with the entities it
 * names and the claims it states, counts co-occurring pairs, and collects what it touched.
 * Call `flush` before committing: pair counts are written once per transaction.
 */
/**
 * Mentions held back while pairs are rebuilt before they are inserted together: ~25 ms of
 * inserts in the slice that writes them, for ~8 times fewer pages written per mention.
 */
const HELD_MENTIONS = 8_000;

export class GraphWriter {
  readonly touchedClaims = new Set<number>();
  readonly touchedEntities = new Set<number>();
  /** Entities whose type votes this writer added, forgot or merged: only their type can change (workspaceTypes.ts). */
  readonly revoted = new Set<number>();
  /** Files to extract again: they named an organisation or person by a short name a new name has made ambiguous (shortOrganisationNames.ts). */
  readonly redoPaths = new Set<string>();
  readonly cooccurrence: Cooccurrence;
  /** Mentions written since the last flush, per entity (graph_entities.mentions is updated once per slice). */
  private readonly mentioned = new Map<number, number>();
  private readonly stmts;
  private readonly people: PersonNames;
  /** Name lookups remembered while only this writer changes the graph (see forgetLookups). */
  private readonly lookups: EntityLookups;
  /** graph_paths ids of the files written in this writer's life (a first extraction writes thousands of entries per file). */
  private readonly pathIds = new Map<string, number>();
  /**
   * Mentions not written yet while pairs are rebuilt (a first, forced or large extraction),
   * with the entities they name by the rules and what waits for them (files recorded as done).
   */
  private readonly held: Array<[entity: number, entry: number, cooccurs: number, byModel: number, vote: number | null]> = [];
  private readonly heldNamed = new Set<number>();
  /** The entries of the held mentions and their claims' evidence, inserted at the end of the slice (before the mentions), many rows per statement. */
  private readonly heldEntries: HeldRows;
  private readonly heldEvidence: HeldRows;
  private readonly afterHeld: Array<() => void> = [];
  /** Entities merged into a new full name while the current entry was resolved (old id → new). */
  private readonly absorbed = new Map<number, number>();

  constructor(
    private readonly db: Database.Database,
    /** The person's merges and splits (ALIASES.md); they overrule every automatic merge. */
    readonly aliases: AliasBook = new AliasBook(),
  ) {
    this.people = new PersonNames(db);
    this.lookups = new EntityLookups(db, (id) => this.heldNamed.has(id));
    this.stmts = {
      byTypeAlias: db.prepare('SELECT a.entity_id FROM graph_aliases a JOIN graph_entities e ON e.id = a.entity_id WHERE a.key = ? AND e.type = ? LIMIT 1').pluck(),
      namedByKey: db.prepare(`SELECT id FROM graph_entities WHERE key = ? AND +type IN ${NAMED_TYPES} ORDER BY type = 'concept', id LIMIT 1`).pluck(),
      namedByAlias: db.prepare(`SELECT e.id FROM graph_aliases a JOIN graph_entities e ON e.id = a.entity_id WHERE a.key = ? AND e.type IN ${NAMED_TYPES} ORDER BY e.type = 'concept', e.id LIMIT 1`).pluck(),
      retype: db.prepare('UPDATE graph_entities SET type = ? WHERE id = ?'),
      insertEntity: db.prepare('INSERT INTO graph_entities (type, label, key) VALUES (?, ?, ?)'),
      typeOf: db.prepare('SELECT type FROM graph_entities WHERE id = ?').pluck(),
      keyOf: db.prepare('SELECT key FROM graph_entities WHERE id = ?').pluck(),
      insertAlias: db.prepare('INSERT OR IGNORE INTO graph_aliases (entity_id, key, alias, path) VALUES (?, ?, ?, ?)'),
      upsertClaim: db.prepare(
        `INSERT INTO graph_claims (subject_id, predicate, object_id, literal, literal_key, confidence, valid_from) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(${CLAIM_IDENTITY}) DO UPDATE SET confidence = max(confidence, excluded.confidence),
           valid_from = CASE WHEN valid_from IS NULL THEN excluded.valid_from WHEN excluded.valid_from IS NULL THEN valid_from ELSE min(valid_from, excluded.valid_from) END
         RETURNING id`,
      ).pluck(),
      // The usual provenance is stored as NULL (migration 0019); origin and tool read it back.
      insertEntry: db.prepare(
        "INSERT INTO graph_entries (path_id, start_line, end_line, chunk_id, dream_run, origin_class, source_tool, observed) VALUES (?, ?, ?, ?, ?, nullif(?, 'owner'), nullif(?, 'workspace'), ?)",
      ),
      pathId: db.prepare('SELECT id FROM graph_paths WHERE path = ?').pluck(),
      insertPath: db.prepare('INSERT INTO graph_paths (path) VALUES (?)'),
      insertMention: db.prepare('INSERT INTO graph_mentions (entity_id, entry_id, cooccurs, by_model, type_vote) VALUES (?, ?, ?, ?, ?)'),
      insertMentions: rowsInsert(db, 'graph_mentions', ['entity_id', 'entry_id', 'cooccurs', 'by_model', 'type_vote']),
      insertClaimEvidence: db.prepare('INSERT INTO graph_claim_evidence (claim_id, entry_id, by_model) VALUES (?, ?, ?)'),
      fileTouches: db.prepare(
        `SELECT m.entity_id AS entity, NULL AS claim, m.type_vote IS NOT NULL AS voted FROM graph_entries g JOIN graph_mentions m ON m.entry_id = g.id WHERE ${entriesOfPath('g')}
         UNION ALL SELECT NULL, e.claim_id, 0 FROM graph_entries g JOIN graph_claim_evidence e ON e.entry_id = g.id WHERE ${entriesOfPath('g')}`,
      ),
      dropMentions: db.prepare(`DELETE FROM graph_mentions WHERE entry_id IN (SELECT g.id FROM graph_entries g WHERE ${entriesOfPath('g')})`),
      dropClaimEvidence: db.prepare(`DELETE FROM graph_claim_evidence WHERE entry_id IN (SELECT g.id FROM graph_entries g WHERE ${entriesOfPath('g')})`),
      dropEntries: db.prepare(`DELETE FROM graph_entries AS g WHERE ${entriesOfPath('g')}`),
      dropPath: db.prepare('DELETE FROM graph_paths WHERE id = ?'),
      dropAliases: db.prepare('DELETE FROM graph_aliases WHERE path = ?'),
      dropAliasOf: db.prepare('DELETE FROM graph_aliases WHERE entity_id = ? AND key = ?'),
      pathsNaming: db.prepare('SELECT DISTINCT p.path FROM graph_mentions m JOIN graph_entries g ON g.id = m.entry_id JOIN graph_paths p ON p.id = g.path_id WHERE m.entity_id = ?').pluck(),
      dropFile: db.prepare('DELETE FROM graph_files WHERE path = ?'),
      addMentions: db.prepare('UPDATE graph_entities SET mentions = mentions + ? WHERE id = ?'),
      addMentionsMany: db.prepare<[string]>('UPDATE graph_entities SET mentions = mentions + value->>1 FROM jsonb_each(CAST(? AS TEXT)) WHERE graph_entities.id = value->>0'),
    };
    this.heldEntries = new HeldRows(db, 'graph_entries', ['path_id', 'start_line', 'end_line', 'chunk_id', 'dream_run', 'origin_class', 'source_tool', 'observed'], {
      origin_class: "nullif($, 'owner')",
      source_tool: "nullif($, 'workspace')",
    });
    this.heldEvidence = new HeldRows(db, 'graph_claim_evidence', ['claim_id', 'entry_id', 'by_model']);
    this.cooccurrence = new Cooccurrence(db);
  }

  /**
   * Writes the pairs counted since the last flush, and the mention counts with them, except
   * while mentions are held back: then the counts wait for the held mentions, written once there
   * are HELD_MENTIONS of them (or `all`), since counts rewritten every slice dirtied the entity
   * pages every commit.
   */
  flush(all = false): void {
    const writeHeld = all || this.held.length >= HELD_MENTIONS;
    if (writeHeld) this.writeHeld();
    else this.writeHeldEntries();
    if (writeHeld || !this.cooccurrence.isRebuilding) {
      if (this.mentioned.size > 0) this.stmts.addMentionsMany.run(JSON.stringify([...this.mentioned]));
      this.mentioned.clear();
    }
    this.cooccurrence.flush();
  }

  /** Removes everything a file's entries said (its entities and claims are collected by the update's settle). */
  forget(path: string): void {
    this.writeHeld(); // the file's mentions are found in the table
    this.lookups.forgetAll();
    this.stmts.dropAliases.run(path);
    this.stmts.dropFile.run(path);
    const pathId = this.stmts.pathId.get(path) as number | undefined;
    if (pathId === undefined) return; // no entry of it named anything
    this.cooccurrence.forget(pathId);
    const forgotten = new Map<number, number>();
    for (const row of this.stmts.fileTouches.iterate({ path_id: pathId }) as Iterable<{ entity: number | null; claim: number | null; voted: number }>) {
      if (row.entity !== null) forgotten.set(row.entity, (forgotten.get(row.entity) ?? 0) + 1);
      if (row.entity !== null && row.voted) this.revoted.add(row.entity);
      if (row.claim !== null) this.touchedClaims.add(row.claim);
    }
    for (const [id, n] of forgotten) {
      this.stmts.addMentions.run(-n, id);
      this.touchedEntities.add(id);
    }
    this.stmts.dropMentions.run({ path_id: pathId });
    this.stmts.dropClaimEvidence.run({ path_id: pathId });
    this.stmts.dropEntries.run({ path_id: pathId });
    this.stmts.dropPath.run(pathId);
    this.pathIds.delete(path);
  }

  /** Stores one entry: its entities (unknown sentence-initial words dropped), claims, aliases and evidence. */
  writeEntry(entry: ExtractedEntry, site: EvidenceSite): void {
    this.absorbed.clear();
    const ids = entry.entities.map((m) => this.resolveNamed(m, site.path)).map((id) => (id === null ? null : (this.absorbed.get(id) ?? id)));
    for (const alias of entry.aliases) {
      const id = ids[alias.entity];
      if (id === null || id === undefined) continue;
      const merged = this.addAlias(id, alias.alias, site.path);
      if (merged !== null) ids.forEach((other, i) => (ids[i] = other === merged ? id : other));
    }
    const distinct = [...new Set(ids.filter((id): id is number => id !== null))];
    // A name the rules found too is theirs; only names the model alone found are marked as its.
    const byRules = new Set(ids.filter((id, i) => id !== null && !entry.entities[i]!.byModel));
    // An entry naming nothing is evidence of nothing (claims need a named subject): not stored.
    if (distinct.length === 0) return;
    const votes = new Map<number, TypeVote[]>();
    entry.entities.forEach((m, i) => {
      const id = ids[i];
      // The chat model's types never vote: the rules' evidence decides a name's type (workspaceTypes.ts).
      if (id !== null && id !== undefined && !m.byModel && m.votes) votes.set(id, [...(votes.get(id) ?? []), ...m.votes]);
    });
    const entryRow = [this.pathIdOf(site.path), entry.startLine, entry.endLine, site.chunkId, site.dreamRun, site.origin, site.tool, entry.observed] as const;
    // While mentions are held, their entry and its claims' evidence wait with them (inserted first).
    const holding = this.cooccurrence.isRebuilding;
    const entryId = holding ? this.heldEntries.add(entryRow) : Number(this.stmts.insertEntry.run(...entryRow).lastInsertRowid);
    distinct.forEach((id, i) => {
      const vote = voteCode(votes.get(id));
      const mention = [id, entryId, i < MAX_COOCCURRING ? 1 : 0, byRules.has(id) ? 0 : 1, vote] as const;
      if (this.cooccurrence.isRebuilding) {
        this.held.push([...mention]);
        if (byRules.has(id)) this.heldNamed.add(id);
      } else this.stmts.insertMention.run(...mention);
      if (byRules.has(id)) this.lookups.namedByRules(id);
      if (vote !== null) this.revoted.add(id);
      this.mentioned.set(id, (this.mentioned.get(id) ?? 0) + 1);
      this.touchedEntities.add(id);
    });
    for (const c of entry.claims) {
      const subject = ids[c.subject];
      const object = c.object === null ? null : (ids[c.object] ?? null);
      if (subject === null || subject === undefined || subject === object || (c.object !== null && object === null)) continue;
      const literal = object !== null ? null : c.literal;
      const claim = this.stmts.upsertClaim.get(subject, c.predicate, object, literal, literal === null ? null : labelKey(literal), c.confidence, entry.observed) as number;
      if (holding) this.heldEvidence.add([claim, entryId, c.byModel ? 1 : 0]);
      else this.stmts.insertClaimEvidence.run(claim, entryId, c.byModel ? 1 : 0);
      this.touchedClaims.add(claim);
    }
    // Entities named in the same entry are related, more so the more entries say so: counted
    // here, written by flush; the entry's evidence is its mentions (cooccurs = 1).
    this.cooccurrence.add(distinct.slice(0, MAX_COOCCURRING), site.tool, site.origin, entry.observed);
  }

  /**
   * A mention as the alias file names it: another name of a group is resolved as the group's
   * shown name and kept as an alias of it; a name the file lists is never a mere sentence start.
   */
  private resolveNamed(m: EntityMention, path: string): number | null {
    const key = labelKey(m.label);
    if (!this.aliases.names(key)) return this.resolve(m, path);
    const group = this.aliases.canonicalOf(key);
    const named: EntityMention = { ...m, certainty: m.certainty === 'tentative' ? 'weak' : m.certainty };
    if (group === null || group.key === key) return this.resolve(named, path);
    // A handle or a typed name keeps its type evidence; the group's entity is found by its shown name.
    const id = this.resolve({ ...named, label: group.label }, path);
    if (id !== null) this.insertAlias(id, key, m.label, path);
    return id;
  }

  /** Whether the person's alias file keeps this name apart from that entity. */
  private keptApart(key: string, id: number | null): boolean {
    if (id === null || !this.aliases.hasSplits) return false;
    return this.aliases.areKeptApart(key, this.stmts.keyOf.get(id) as string);
  }

  /** The stored entity a mention names, created when new; null for an unknown sentence-initial word. */
  private resolve(m: EntityMention, path: string): number | null {
    const key = labelKey(m.label);
    if (!key) return null;
    if (key.startsWith('@') && !m.byModel) {
      // A handle is the person it fits, once the graph knows them; else a person of its own.
      const person = (this.lookups.byTypeKey('person', key) ?? this.stmts.byTypeAlias.get(key, 'person') ?? this.people.byHandle(key)) as number | null | undefined;
      return person !== null && person !== undefined && !this.keptApart(key, person) ? person : (this.lookups.byTypeKey('person', key) ?? this.create('person', m.label, key));
    }
    if (m.certainty !== 'strong') {
      // A model's name joins any known entity; the rules' only one they named themselves (see NAMED_BY_RULES).
      const byName = m.byModel
        ? ((this.stmts.namedByKey.get(key) ?? this.stmts.namedByAlias.get(key)) as number | undefined)
        : (this.lookups.rulesNamedByKey(key) ?? this.lookups.rulesNamedByAlias(key));
      // A first name alone is the one person of that name, when there is only one ("Dana" is Dana Okafor).
      const person = byName === undefined && !m.byModel ? this.lookups.byFirstName(key) : null;
      const known = byName ?? person;
      if (known !== null && !this.keptApart(key, known)) return known === person ? this.joinFirstName(person, m.label, key, path) : known;
      if (m.certainty === 'tentative') return null;
      // A model's name joins a known entity whatever its type (it never retypes one); a new one takes the model's type.
      if (m.byModel) return this.create(m.type, m.label, key);
      // "Priya Natarajan" after "Priya said …": the one full name of a known person is that person.
      const first = key.split(' ')[0]!;
      if (looksLikeFullName(m.label) && this.lookups.byTypeKey('person', first) !== undefined && this.lookups.byFirstName(first) === null && !this.aliases.areKeptApart(first, key)) {
        return this.resolve({ ...m, type: 'person', certainty: 'strong' }, path);
      }
      // The model may have called it a concept too: one entity per type and key, now named by both.
      return this.lookups.byTypeKey('concept', key) ?? this.create('concept', m.label, key);
    }
    // "#ledgerd" is the ledgerd the notes name, once they do.
    if (m.type === 'tag' && !m.byModel) {
      const named = this.lookups.rulesNamedByKey(key);
      if (named !== undefined) return named;
    }
    // Same type and key is one entity (a unique index), whoever named it first.
    const same = this.lookups.byTypeKey(m.type, key) ?? (this.stmts.byTypeAlias.get(key, m.type) as number | undefined);
    if (same !== undefined) return same;
    const named = m.type !== 'concept' && !['tag', 'url', 'path'].includes(m.type);
    if (named && m.type === 'person' && !/\s/.test(key) && !m.byModel) {
      const person = this.lookups.byFirstName(key);
      if (person !== null && !this.keptApart(key, person)) return this.joinFirstName(person, m.label, key, path);
      // "Priya said …" after an untyped "Priya Natarajan": that full name is this person.
      const untyped = this.people.untypedFullName(key);
      if (untyped !== null && !this.keptApart(key, untyped)) {
        this.retype('person', untyped);
        this.absorbShortNames(untyped, this.stmts.keyOf.get(untyped) as string, path);
        return untyped;
      }
    }
    // A name first seen untyped (by the rules) gets its type when a later mention says what it is.
    const concept = named ? this.lookups.rulesConceptByKey(key) : undefined;
    if (concept !== undefined) {
      this.retype(m.type, concept);
      if (m.type === 'person' && /\s/.test(key)) {
        this.unjoinShortName(key.split(' ')[0]!, concept, true);
        this.absorbShortNames(concept, key, path);
      }
      return concept;
    }
    // One thing, one entity: a name already typed otherwise keeps its first type from the evidence.
    const other = named && !m.byModel ? this.lookups.namedOtherType(key) : undefined;
    // Except a person taken for a place first ("in Florence" before "Florence said"): what people do outweighs where words sit.
    if (other !== undefined && m.type === 'person' && !m.byNameList && this.stmts.typeOf.get(other) === 'place') this.retype('person', other);
    if (other !== undefined) return other;
    const id = this.create(m.type, m.label, key);
    if (m.type === 'person' && /\s/.test(key) && !m.byModel) this.absorbShortNames(id, key, path);
    return id;
  }

  /**
   * A new full name ("Dana Okafor") takes in the short names seen before it ("Dana", "@dana")
   * when it is the only person of that first name; the short names stay as aliases.
   */
  private absorbShortNames(id: number, key: string, path: string): void {
    const first = key.split(' ')[0]!;
    if (this.lookups.byFirstName(first) !== id) return;
    const candidates = [first, ...[...handleForms(key)].map((h) => `@${h}`)].filter((short) => !this.aliases.areKeptApart(short, key));
    for (const short of candidates) {
      const ids = this.db.prepare(`SELECT id FROM graph_entities WHERE key = ? AND type IN ('person', 'concept') AND id != ?`).pluck().all(short, id) as number[];
      for (const other of ids) {
        this.flush(true);
        mergeEntity(this.db, other, id, path, this.cooccurrence);
        this.lookups.forgetAll();
        this.touchedEntities.delete(other);
        this.revoted.delete(other);
        this.revoted.add(id);
        this.absorbed.set(other, id);
      }
    }
  }

  /** Runs `work` once the mentions written so far are in the table (a file is recorded as done only then). */
  whenWritten(work: () => void): void {
    if (this.held.length === 0) work();
    else this.afterHeld.push(work);
  }

  /**
   * Inserts the held mentions in key order, (entity, entry): the table's b-tree is keyed so, and
   * a slice's mentions inserted as they came dirtied ~40 pages each, two thirds of what every
   * commit wrote to the WAL (1.3 GB for a first extraction of 2,000 notes).
   */
  private writeHeld(): void {
    if (this.held.length === 0) return;
    this.writeHeldEntries();
    this.held.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    insertRows(this.stmts.insertMentions, this.held);
    this.held.length = 0;
    this.heldNamed.clear();
    for (const work of this.afterHeld.splice(0)) work();
  }

  /** The held mentions' entries and their claims' evidence, written every slice: appended in id order, they dirty few pages. */
  private writeHeldEntries(): void {
    this.heldEntries.write();
    this.heldEvidence.write();
  }

  /**
   * Something other than this writer changed entities, aliases or mentions (the update's
   * settle, a merge of short names): its remembered lookups no longer hold.
   */
  forgetLookups(): void {
    this.lookups.forgetAll();
  }

  private retype(type: EntityType, id: number): void {
    this.stmts.retype.run(type, id);
    this.lookups.retyped(this.stmts.keyOf.get(id) as string);
  }

  private insertAlias(entityId: number, key: string, alias: string, path: string): void {
    this.stmts.insertAlias.run(entityId, key, alias, path);
    this.lookups.aliasAdded();
  }

  /** The file's graph_paths id, added with its first entry. */
  private pathIdOf(path: string): number {
    let id = this.pathIds.get(path) ?? (this.stmts.pathId.get(path) as number | undefined);
    id ??= Number(this.stmts.insertPath.run(path).lastInsertRowid);
    this.pathIds.set(path, id);
    return id;
  }

  private create(type: EntityType, label: string, key: string): number {
    const id = Number(this.stmts.insertEntity.run(type, label, key).lastInsertRowid);
    this.lookups.created(key, type);
    if (key.includes(' ')) this.unjoinShortName(key.split(' ')[0]!, id, type === 'person');
    return id;
  }

  /**
   * "Dana" alone is the one person called Dana: the first name is kept as that person's alias
   * with this file, so a second Dana can find and undo the join (unjoinShortName).
   */
  private joinFirstName(person: number, label: string, key: string, path: string): number {
    this.insertAlias(person, key, label, path);
    return person;
  }

  /**
   * A second "Tidewater …" (or a second person called Dana) makes the first word ambiguous: the
   * name it was joined to loses it as an alias, and the files naming that name are extracted
   * again (graphUpdate.ts), so their "Tidewater" or "Dana" becomes a name of its own, as a
   * rebuild would have it.
   */
  private unjoinShortName(firstWord: string, newId: number, newIsPerson: boolean): void {
    const owner = ambiguousPrefixOwner(this.db, firstWord, newId, newIsPerson, this.aliases);
    if (owner === null) return;
    this.writeHeld(); // the files naming the owner are found by its mentions
    this.stmts.dropAliasOf.run(owner, firstWord);
    this.lookups.forgetAll();
    for (const path of this.stmts.pathsNaming.all(owner) as string[]) this.redoPaths.add(path);
  }

  /** Records an alias; an entity of the same type already called that is merged in (its id is returned). */
  private addAlias(entityId: number, alias: string, path: string): number | null {
    const key = labelKey(alias);
    if (!key) return null;
    const type = this.stmts.typeOf.get(entityId) as EntityType;
    const twin = this.lookups.byTypeKey(type, key);
    const merged = twin !== undefined && twin !== entityId && !this.keptApart(key, entityId) ? twin : null;
    if (merged !== null) {
      this.flush(true); // counted pairs and held mentions may name the merged-away entity
      mergeEntity(this.db, merged, entityId, path, this.cooccurrence);
      this.lookups.forgetAll();
      this.touchedEntities.delete(merged);
      this.revoted.delete(merged);
      this.revoted.add(entityId);
    }
    this.insertAlias(entityId, key, alias, path);
    return merged;
  }
}

/**
 * Moves everything of `from` to `into` (mentions, claims, aliases) and deletes `from`.
 * Claims that become duplicates are folded together, keeping all their evidence; an entry
 * naming both is one mention of `into`, and `into`'s pairs are recounted from its mentions.
 */
export function mergeEntity(db: Database.Database, from: number, into: number, path: string, cooccurrence: Cooccurrence): void {
  const claims = db.prepare('SELECT id, subject_id, predicate, object_id, literal_key FROM graph_claims WHERE subject_id = ? OR object_id = ?').all(from, from) as Array<{
    id: number;
    subject_id: number;
    predicate: string;
    object_id: number | null;
    literal_key: string | null;
  }>;
  const findClaim = db.prepare(`SELECT id FROM graph_claims WHERE ${CLAIM_BY_IDENTITY}`).pluck();
  const drop = db.prepare('DELETE FROM graph_claims WHERE id = ?');
  for (const c of claims) {
    let subject = c.subject_id === from ? into : c.subject_id;
    let object = c.object_id === from ? into : c.object_id;
    if (subject === object) {
      if (c.predicate === MENTIONED_WITH) cooccurrence.dropPair(c.subject_id, c.object_id!);
      drop.run(c.id); // became a self-loop
      continue;
    }
    if (c.predicate === MENTIONED_WITH && object !== null && object < subject) [subject, object] = [object, subject];
    const existing = findClaim.get(subject, c.predicate, object ?? 0, c.literal_key ?? '') as number | undefined;
    // A pair's evidence is its entities' mentions: its tallies are recounted below.
    if (c.predicate === MENTIONED_WITH) cooccurrence.dropPair(c.subject_id, c.object_id!);
    if (existing !== undefined && existing !== c.id) {
      if (c.predicate !== MENTIONED_WITH) db.prepare('UPDATE graph_claim_evidence SET claim_id = ? WHERE claim_id = ?').run(existing, c.id);
      drop.run(c.id);
    } else db.prepare('UPDATE graph_claims SET subject_id = ?, object_id = ? WHERE id = ?').run(subject, object, c.id);
  }
  db.prepare(
    `INSERT INTO graph_mentions (entity_id, entry_id, cooccurs, by_model, type_vote) SELECT ?, entry_id, cooccurs, by_model, type_vote FROM graph_mentions WHERE entity_id = ?
     ON CONFLICT (entity_id, entry_id) DO UPDATE SET cooccurs = max(cooccurs, excluded.cooccurs), by_model = min(by_model, excluded.by_model), type_vote = coalesce(type_vote, excluded.type_vote)`,
  ).run(into, from);
  db.prepare('DELETE FROM graph_mentions WHERE entity_id = ?').run(from);
  db.prepare('UPDATE graph_entities SET mentions = (SELECT count(*) FROM graph_mentions WHERE entity_id = ?) WHERE id = ?').run(into, into);
  db.prepare('INSERT OR IGNORE INTO graph_aliases (entity_id, key, alias, path) SELECT ?, key, alias, path FROM graph_aliases WHERE entity_id = ?').run(into, from);
  const label = db.prepare('SELECT label, key FROM graph_entities WHERE id = ?').get(from) as { label: string; key: string };
  db.prepare('DELETE FROM graph_entities WHERE id = ?').run(from);
  // The merged-away label stays findable as an alias of the survivor.
  db.prepare('INSERT OR IGNORE INTO graph_aliases (entity_id, key, alias, path) VALUES (?, ?, ?, ?)').run(into, label.key, label.label, path);
  cooccurrence.recount(into);
}
