import type { Migration } from './types.js';

/**
 * The graph's evidence, normalised. An extracted entry's lines and provenance are stored
 * once (`graph_entries`); entities point at the entries naming them (`graph_mentions`),
 * relation and literal claims at the entries stating them (`graph_claim_evidence`).
 *
 * `mentioned_with` no longer has evidence rows of its own (it had one per pair per entry,
 * 2/3 of the first extraction's time and most of the index): its evidence is the entries
 * where both entities are mentioned (joined at query time), and one row per pair and
 * (source tool, origin class) keeps how many such entries there are and the earliest date,
 * so weights, filters and validity stay cheap.
 *
 * The graph is derived: the old tables are dropped and the next sync extracts it again.
 */
export const migration0005: Migration = {
  version: 5,
  name: 'graph-cooccurrence',
  up(db) {
    // Children first: with foreign keys on, dropping a parent deletes its rows one by one.
    db.exec(`
      DROP TABLE graph_evidence;
      DROP TABLE graph_aliases;
      DROP TABLE graph_claims;
      DROP TABLE graph_entities;
      DROP TABLE graph_files;

      CREATE TABLE graph_entities (
        id     INTEGER PRIMARY KEY,
        type   TEXT NOT NULL,
        label  TEXT NOT NULL,
        -- Normalised label (case, spacing, Latin/Greek/Cyrillic diacritics folded).
        key    TEXT NOT NULL,
        -- Entries naming it (its graph_mentions rows), kept as they are written and forgotten.
        mentions INTEGER NOT NULL DEFAULT 0
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
      -- Literal claims of a subject without walking its (many) relations, for supersession.
      CREATE INDEX graph_claims_literal_by_subject ON graph_claims(subject_id, predicate) WHERE literal IS NOT NULL;

      -- One extracted entry: the lines every entity and claim of it points at, and where they came from.
      CREATE TABLE graph_entries (
        id         INTEGER PRIMARY KEY,
        path       TEXT NOT NULL,
        start_line INTEGER NOT NULL CHECK (start_line >= 1),
        end_line   INTEGER NOT NULL CHECK (end_line >= start_line),
        -- No foreign key: chunks are rebuilt on their own schedule; a stale id only loses a link.
        chunk_id   INTEGER,
        dream_run  TEXT,
        origin     TEXT NOT NULL CHECK (origin IN ('owner', 'agent', 'untrusted', 'system')),
        tool       TEXT NOT NULL CHECK (tool IN ('workspace', 'codex', 'claude-code', 'hermes')),
        observed   TEXT
      ) STRICT;
      CREATE INDEX graph_entries_by_path ON graph_entries(path);
      CREATE INDEX graph_entries_by_observed ON graph_entries(observed);

      -- An entity's evidence: the entries naming it. cooccurs: among the first names of the
      -- entry that mentioned_with pairs are drawn among.
      CREATE TABLE graph_mentions (
        entity_id INTEGER NOT NULL REFERENCES graph_entities(id) ON DELETE CASCADE,
        entry_id  INTEGER NOT NULL REFERENCES graph_entries(id) ON DELETE CASCADE,
        cooccurs  INTEGER NOT NULL CHECK (cooccurs IN (0, 1)),
        PRIMARY KEY (entity_id, entry_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX graph_mentions_by_entry ON graph_mentions(entry_id, cooccurs);

      -- A relation's or literal's evidence (not mentioned_with's): one row per statement.
      CREATE TABLE graph_claim_evidence (
        id       INTEGER PRIMARY KEY,
        claim_id INTEGER NOT NULL REFERENCES graph_claims(id) ON DELETE CASCADE,
        entry_id INTEGER NOT NULL REFERENCES graph_entries(id) ON DELETE CASCADE
      ) STRICT;
      CREATE INDEX graph_claim_evidence_by_claim ON graph_claim_evidence(claim_id);
      CREATE INDEX graph_claim_evidence_by_entry ON graph_claim_evidence(entry_id);

      -- A mentioned_with claim's entries (the pair as its claim has it, smaller id first), counted
      -- per source tool and origin class: how many, how many undated, and the earliest date.
      -- Kept equal to the join of the two entities' mentions (cooccurs = 1) as files are
      -- extracted and forgotten and entities merged.
      CREATE TABLE graph_cooccurrence (
        subject_id     INTEGER NOT NULL,
        object_id      INTEGER NOT NULL,
        tool           TEXT NOT NULL,
        origin         TEXT NOT NULL,
        entries        INTEGER NOT NULL CHECK (entries > 0),
        undated        INTEGER NOT NULL CHECK (undated >= 0),
        first_observed TEXT,
        PRIMARY KEY (subject_id, object_id, tool, origin)
      ) STRICT, WITHOUT ROWID;

      -- Flags of the graph as a whole: 'cooccurrence' = 'rebuild' while tallies are being rebuilt.
      CREATE TABLE graph_state (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;

      CREATE TABLE graph_files (
        path         TEXT PRIMARY KEY,
        sha256       TEXT NOT NULL,
        entries      INTEGER NOT NULL,
        extracted_at INTEGER NOT NULL
      ) STRICT;
    `);
  },
};
