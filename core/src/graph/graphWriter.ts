import type Database from 'better-sqlite3';
import type { EntityType, SourceTool } from '../api/contract.js';
import { labelKey } from './labelKey.js';
import { MENTIONED_WITH, type EntityMention, type EntryProvenance, type ExtractedEntry } from './types.js';

/** Types a name can turn out to be; tags, URLs and paths are never names. */
const NAMED_TYPES = "('person','project','organization','place','machine','tool','concept','identifier')";
/** `mentioned_with` edges are drawn among this many of an entry's entities at most. */
const MAX_COOCCURRING = 20;
const COOCCURRENCE_CONFIDENCE = 0.5;

/** Where one entry's evidence points. */
export interface EvidenceSite extends EntryProvenance {
  path: string;
  tool: SourceTool;
}

/**
 * Writes extracted entries into the graph tables: matches entities by type and key (or
 * alias), merges entities an alias joins, records evidence, and collects what it touched.
 */
export class GraphWriter {
  readonly touchedClaims = new Set<number>();
  readonly touchedEntities = new Set<number>();
  private readonly stmts;

  constructor(private readonly db: Database.Database) {
    this.stmts = {
      byTypeKey: db.prepare('SELECT id FROM graph_entities WHERE type = ? AND key = ?').pluck(),
      byTypeAlias: db.prepare('SELECT a.entity_id FROM graph_aliases a JOIN graph_entities e ON e.id = a.entity_id WHERE a.key = ? AND e.type = ? LIMIT 1').pluck(),
      namedByKey: db.prepare(`SELECT id FROM graph_entities WHERE key = ? AND type IN ${NAMED_TYPES} ORDER BY type = 'concept', id LIMIT 1`).pluck(),
      namedByAlias: db.prepare(`SELECT e.id FROM graph_aliases a JOIN graph_entities e ON e.id = a.entity_id WHERE a.key = ? AND e.type IN ${NAMED_TYPES} ORDER BY e.type = 'concept', e.id LIMIT 1`).pluck(),
      conceptByKey: db.prepare("SELECT id FROM graph_entities WHERE type = 'concept' AND key = ?").pluck(),
      retype: db.prepare('UPDATE graph_entities SET type = ? WHERE id = ?'),
      insertEntity: db.prepare('INSERT INTO graph_entities (type, label, key) VALUES (?, ?, ?)'),
      typeOf: db.prepare('SELECT type FROM graph_entities WHERE id = ?').pluck(),
      insertAlias: db.prepare('INSERT OR IGNORE INTO graph_aliases (entity_id, key, alias, path) VALUES (?, ?, ?, ?)'),
      upsertClaim: db.prepare(
        `INSERT INTO graph_claims (key, subject_id, predicate, object_id, literal, confidence, valid_from) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(key) DO UPDATE SET confidence = max(confidence, excluded.confidence),
           valid_from = CASE WHEN valid_from IS NULL THEN excluded.valid_from WHEN excluded.valid_from IS NULL THEN valid_from ELSE min(valid_from, excluded.valid_from) END
         RETURNING id`,
      ).pluck(),
      insertEvidence: db.prepare(
        'INSERT INTO graph_evidence (entity_id, claim_id, path, start_line, end_line, chunk_id, dream_run, origin, tool, observed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
    };
  }

  /** Stores one entry: its entities (unknown sentence-initial words dropped), claims, aliases and evidence. */
  writeEntry(entry: ExtractedEntry, site: EvidenceSite): void {
    this.entry = entry;
    this.site = site;
    const ids = entry.entities.map((m) => this.resolve(m));
    for (const alias of entry.aliases) {
      const id = ids[alias.entity];
      if (id === null || id === undefined) continue;
      const merged = this.addAlias(id, alias.alias, site.path);
      if (merged !== null) ids.forEach((other, i) => (ids[i] = other === merged ? id : other));
    }
    const distinct = [...new Set(ids.filter((id): id is number => id !== null))];
    for (const id of distinct) {
      this.stmts.insertEvidence.run(id, null, site.path, entry.startLine, entry.endLine, site.chunkId, site.dreamRun, site.origin, site.tool, entry.observed);
      this.touchedEntities.add(id);
    }
    for (const c of entry.claims) {
      const subject = ids[c.subject];
      const object = c.object === null ? null : (ids[c.object] ?? null);
      if (subject === null || subject === undefined || subject === object || (c.object !== null && object === null)) continue;
      this.claim(subject, c.predicate, object, c.literal, c.confidence);
    }
    // Entities named in the same entry are related, more so the more entries say so.
    const together = distinct.slice(0, MAX_COOCCURRING);
    for (let i = 0; i < together.length; i++)
      for (let j = i + 1; j < together.length; j++) {
        const [a, b] = together[i]! < together[j]! ? [together[i]!, together[j]!] : [together[j]!, together[i]!];
        this.claim(a, MENTIONED_WITH, b, null, COOCCURRENCE_CONFIDENCE);
      }
  }

  private entry: ExtractedEntry | null = null;
  private site: EvidenceSite | null = null;

  private claim(subject: number, predicate: string, object: number | null, literal: string | null, confidence: number): number {
    const site = this.site!;
    const entry = this.entry!;
    const id = this.stmts.upsertClaim.get(claimKey(subject, predicate, object, literal), subject, predicate, object, object !== null ? null : literal, confidence, entry.observed) as number;
    this.stmts.insertEvidence.run(null, id, site.path, entry.startLine, entry.endLine, site.chunkId, site.dreamRun, site.origin, site.tool, entry.observed);
    this.touchedClaims.add(id);
    return id;
  }

  /** The stored entity a mention names, created when new; null for an unknown sentence-initial word. */
  private resolve(m: EntityMention): number | null {
    const key = labelKey(m.label);
    if (!key) return null;
    if (m.certainty !== 'strong') {
      const known = (this.stmts.namedByKey.get(key) ?? this.stmts.namedByAlias.get(key)) as number | undefined;
      if (known !== undefined) return known;
      if (m.certainty === 'tentative') return null;
      return this.create('concept', m.label, key);
    }
    const same = (this.stmts.byTypeKey.get(m.type, key) ?? this.stmts.byTypeAlias.get(key, m.type)) as number | undefined;
    if (same !== undefined) return same;
    // A name first seen untyped gets its type when a later mention says what it is.
    const concept = m.type !== 'concept' && !['tag', 'url', 'path'].includes(m.type) ? (this.stmts.conceptByKey.get(key) as number | undefined) : undefined;
    if (concept !== undefined) {
      this.stmts.retype.run(m.type, concept);
      return concept;
    }
    return this.create(m.type, m.label, key);
  }

  private create(type: EntityType, label: string, key: string): number {
    return Number(this.stmts.insertEntity.run(type, label, key).lastInsertRowid);
  }

  /** Records an alias; an entity of the same type already called that is merged in (its id is returned). */
  private addAlias(entityId: number, alias: string, path: string): number | null {
    const key = labelKey(alias);
    if (!key) return null;
    const type = this.stmts.typeOf.get(entityId) as EntityType;
    const twin = this.stmts.byTypeKey.get(type, key) as number | undefined;
    const merged = twin !== undefined && twin !== entityId ? twin : null;
    if (merged !== null) {
      mergeEntity(this.db, merged, entityId, path);
      this.touchedEntities.delete(merged);
    }
    this.stmts.insertAlias.run(entityId, key, alias, path);
    return merged;
  }
}

/**
 * Moves everything of `from` to `into` (evidence, claims, aliases) and deletes `from`.
 * Claims that become duplicates are folded together, keeping all their evidence.
 */
export function mergeEntity(db: Database.Database, from: number, into: number, path: string): void {
  const claims = db.prepare('SELECT id, subject_id, predicate, object_id, literal FROM graph_claims WHERE subject_id = ? OR object_id = ?').all(from, from) as Array<{
    id: number;
    subject_id: number;
    predicate: string;
    object_id: number | null;
    literal: string | null;
  }>;
  const findKey = db.prepare('SELECT id FROM graph_claims WHERE key = ?').pluck();
  for (const c of claims) {
    let subject = c.subject_id === from ? into : c.subject_id;
    let object = c.object_id === from ? into : c.object_id;
    if (subject === object) {
      db.prepare('DELETE FROM graph_claims WHERE id = ?').run(c.id); // became a self-loop
      continue;
    }
    if (c.predicate === MENTIONED_WITH && object !== null && object < subject) [subject, object] = [object, subject];
    const key = claimKey(subject, c.predicate, object, c.literal);
    const existing = findKey.get(key) as number | undefined;
    if (existing !== undefined && existing !== c.id) {
      db.prepare('UPDATE graph_evidence SET claim_id = ? WHERE claim_id = ?').run(existing, c.id);
      db.prepare('DELETE FROM graph_claims WHERE id = ?').run(c.id);
    } else db.prepare('UPDATE graph_claims SET key = ?, subject_id = ?, object_id = ? WHERE id = ?').run(key, subject, object, c.id);
  }
  db.prepare('UPDATE graph_evidence SET entity_id = ? WHERE entity_id = ?').run(into, from);
  db.prepare('INSERT OR IGNORE INTO graph_aliases (entity_id, key, alias, path) SELECT ?, key, alias, path FROM graph_aliases WHERE entity_id = ?').run(into, from);
  const label = db.prepare('SELECT label, key FROM graph_entities WHERE id = ?').get(from) as { label: string; key: string };
  db.prepare('DELETE FROM graph_entities WHERE id = ?').run(from);
  // The merged-away label stays findable as an alias of the survivor.
  db.prepare('INSERT OR IGNORE INTO graph_aliases (entity_id, key, alias, path) VALUES (?, ?, ?, ?)').run(into, label.key, label.label, path);
}

/** One claim per subject, predicate and object (or normalised literal). */
export function claimKey(subject: number, predicate: string, object: number | null, literal: string | null): string {
  return `${subject}|${predicate}|${object !== null ? `e${object}` : `l${labelKey(literal ?? '')}`}`;
}
