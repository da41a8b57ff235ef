import type { Migration } from './types.js';

/**
 * A smaller graph (issues 19 and 24: the graph tables were 40 % of the index at 2,000 notes):
 *
 * - An entry names its file by an integer (`graph_paths`) instead of repeating the path text in
 *   every row and in the index by path; entries naming nothing are no longer stored.
 * - A claim is unique by (subject, predicate, object or normalised literal) through one index,
 *   which also serves lookups by subject and predicate, instead of a text key stored in the row
 *   and again in its own unique index.
 *
 * The graph is derived from the Markdown: its tables are dropped and rebuilt in the new layout,
 * and the next sync extracts it again in background slices (search keeps working throughout:
 * chunks and vectors are untouched). What the chat model had read is forgotten with it.
 */
export const migration0013: Migration = {
  version: 13,
  name: 'graph-compact',
  up(db) {
    // Children first: with foreign keys on, dropping a parent deletes its rows one by one.
    db.exec(`
      DROP TABLE IF EXISTS graph_claim_evidence;
      DROP TABLE IF EXISTS graph_mentions;
      DROP TABLE IF EXISTS graph_cooccurrence;
      DROP TABLE IF EXISTS graph_aliases;
      DROP TABLE IF EXISTS graph_claims;
      DROP TABLE IF EXISTS graph_entries;
      DROP TABLE IF EXISTS graph_entities;
      DROP TABLE IF EXISTS graph_state;
      DROP TABLE IF EXISTS graph_files;
      DROP TABLE IF EXISTS graph_paths;
      DELETE FROM graph_model_files;

      CREATE TABLE graph_entities (
        id       INTEGER PRIMARY KEY,
        type     TEXT NOT NULL,
        label    TEXT NOT NULL,
        -- Normalised label (case, spacing, Latin/Greek/Cyrillic diacritics folded).
        key      TEXT NOT NULL,
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
        subject_id  INTEGER NOT NULL REFERENCES graph_entities(id) ON DELETE CASCADE,
        predicate   TEXT NOT NULL,
        object_id   INTEGER REFERENCES graph_entities(id) ON DELETE CASCADE,
        literal     TEXT,
        -- The literal normalised (labelKey): two spellings of one value are one claim.
        literal_key TEXT,
        confidence  REAL NOT NULL,
        valid_from  TEXT,
        valid_until TEXT,
        CHECK ((object_id IS NULL) != (literal IS NULL)),
        CHECK ((literal IS NULL) = (literal_key IS NULL))
      ) STRICT;
      -- One claim per subject, predicate and object or literal (see claimIdentity.ts); also the
      -- index by subject and predicate.
      CREATE UNIQUE INDEX graph_claims_identity ON graph_claims(subject_id, predicate, ifnull(object_id, 0), ifnull(literal_key, ''));
      CREATE INDEX graph_claims_by_object ON graph_claims(object_id);
      -- Literal claims of a subject without walking its (many) relations, for supersession.
      CREATE INDEX graph_claims_literal_by_subject ON graph_claims(subject_id, predicate) WHERE literal IS NOT NULL;

      -- The files entries are in, named once.
      CREATE TABLE graph_paths (
        id   INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE
      ) STRICT;

      -- One extracted entry that names something: the lines its entities and claims point at, and where they came from.
      CREATE TABLE graph_entries (
        id         INTEGER PRIMARY KEY,
        path_id    INTEGER NOT NULL,
        start_line INTEGER NOT NULL CHECK (start_line >= 1),
        end_line   INTEGER NOT NULL CHECK (end_line >= start_line),
        -- No foreign key: chunks are rebuilt on their own schedule; a stale id only loses a link.
        chunk_id   INTEGER,
        dream_run  TEXT,
        origin     TEXT NOT NULL CHECK (origin IN ('owner', 'agent', 'untrusted', 'system')),
        tool       TEXT NOT NULL,
        observed   TEXT
      ) STRICT;
      CREATE INDEX graph_entries_by_path ON graph_entries(path_id);
      CREATE INDEX graph_entries_by_observed ON graph_entries(observed);

      -- An entity's evidence: the entries naming it. cooccurs: among the first names of the
      -- entry that mentioned_with pairs are drawn among.
      CREATE TABLE graph_mentions (
        entity_id INTEGER NOT NULL REFERENCES graph_entities(id) ON DELETE CASCADE,
        entry_id  INTEGER NOT NULL REFERENCES graph_entries(id) ON DELETE CASCADE,
        cooccurs  INTEGER NOT NULL CHECK (cooccurs IN (0, 1)),
        by_model  INTEGER NOT NULL DEFAULT 0 CHECK (by_model IN (0, 1)),
        PRIMARY KEY (entity_id, entry_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX graph_mentions_by_entry ON graph_mentions(entry_id, cooccurs);

      -- A relation's or literal's evidence (not mentioned_with's): one row per statement.
      CREATE TABLE graph_claim_evidence (
        id       INTEGER PRIMARY KEY,
        claim_id INTEGER NOT NULL REFERENCES graph_claims(id) ON DELETE CASCADE,
        entry_id INTEGER NOT NULL REFERENCES graph_entries(id) ON DELETE CASCADE,
        by_model INTEGER NOT NULL DEFAULT 0 CHECK (by_model IN (0, 1))
      ) STRICT;
      CREATE INDEX graph_claim_evidence_by_claim ON graph_claim_evidence(claim_id);
      CREATE INDEX graph_claim_evidence_by_entry ON graph_claim_evidence(entry_id);

      -- A mentioned_with claim's entries counted per source tool and origin class (see 0005).
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
