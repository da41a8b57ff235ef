import type { Migration } from './types.js';

/**
 * The knowledge graph, derived from the Markdown like the rest of the index: entities
 * (unique per type and normalised key), their aliases, claims (subject → predicate → entity
 * or literal, with validity), the evidence lines behind both, and which version of each file
 * was extracted, so an update re-reads only files whose hash changed.
 */
export const migration0004: Migration = {
  version: 4,
  name: 'graph',
  up(db) {
    db.exec(`
      CREATE TABLE graph_entities (
        id     INTEGER PRIMARY KEY,
        type   TEXT NOT NULL,
        label  TEXT NOT NULL,
        -- Normalised label (case, spacing, Latin/Greek/Cyrillic diacritics folded).
        key    TEXT NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX graph_entities_by_type_key ON graph_entities(type, key);
      CREATE INDEX graph_entities_by_key ON graph_entities(key);

      -- Aliases belong to the file that declared them, so re-extracting it replaces them.
      CREATE TABLE graph_aliases (
        entity_id INTEGER NOT NULL REFERENCES graph_entities(id) ON DELETE CASCADE,
        key       TEXT NOT NULL,
        alias     TEXT NOT NULL,
        path      TEXT NOT NULL,
        PRIMARY KEY (entity_id, key, path)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX graph_aliases_by_key ON graph_aliases(key);
      CREATE INDEX graph_aliases_by_path ON graph_aliases(path);

      CREATE TABLE graph_claims (
        id          INTEGER PRIMARY KEY,
        -- subject|predicate|e<object> or subject|predicate|l<normalised literal>
        key         TEXT NOT NULL UNIQUE,
        subject_id  INTEGER NOT NULL REFERENCES graph_entities(id) ON DELETE CASCADE,
        predicate   TEXT NOT NULL,
        object_id   INTEGER REFERENCES graph_entities(id) ON DELETE CASCADE,
        literal     TEXT,
        confidence  REAL NOT NULL,
        valid_from  TEXT,
        valid_until TEXT,
        CHECK ((object_id IS NULL) != (literal IS NULL))
      ) STRICT;
      CREATE INDEX graph_claims_by_subject ON graph_claims(subject_id, predicate);
      CREATE INDEX graph_claims_by_object ON graph_claims(object_id);

      CREATE TABLE graph_evidence (
        id         INTEGER PRIMARY KEY,
        entity_id  INTEGER REFERENCES graph_entities(id) ON DELETE CASCADE,
        claim_id   INTEGER REFERENCES graph_claims(id) ON DELETE CASCADE,
        path       TEXT NOT NULL,
        start_line INTEGER NOT NULL CHECK (start_line >= 1),
        end_line   INTEGER NOT NULL CHECK (end_line >= start_line),
        -- No foreign key: chunks are rebuilt on their own schedule; a stale id only loses a link.
        chunk_id   INTEGER,
        dream_run  TEXT,
        origin     TEXT NOT NULL CHECK (origin IN ('owner', 'agent', 'untrusted', 'system')),
        tool       TEXT NOT NULL CHECK (tool IN ('workspace', 'codex', 'claude-code', 'hermes')),
        observed   TEXT,
        CHECK ((entity_id IS NULL) != (claim_id IS NULL))
      ) STRICT;
      CREATE INDEX graph_evidence_by_entity ON graph_evidence(entity_id) WHERE entity_id IS NOT NULL;
      CREATE INDEX graph_evidence_by_claim ON graph_evidence(claim_id) WHERE claim_id IS NOT NULL;
      CREATE INDEX graph_evidence_by_path ON graph_evidence(path);

      CREATE TABLE graph_files (
        path         TEXT PRIMARY KEY,
        sha256       TEXT NOT NULL,
        entries      INTEGER NOT NULL,
        extracted_at INTEGER NOT NULL
      ) STRICT;
    `);
  },
};
