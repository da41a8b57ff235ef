import type { Migration } from './types.js';

/**
 * A name's type from all its mentions (issue 19: the first file to name a thing fixed its type,
 * so "Vault", a place in one note and a tool in nine, stayed a place). Each file's type evidence
 * per entity is kept (`graph/workspaceTypes.ts`), so an edit re-decides a name's type from the
 * stored votes of every file rather than from a rebuild. The rules version bump that came with
 * it re-extracts the graph, which fills the table.
 */
export const migration0018: Migration = {
  version: 18,
  name: 'graph-type-votes',
  up(db) {
    db.exec(`
      CREATE TABLE graph_type_votes (
        entity_id INTEGER NOT NULL REFERENCES graph_entities(id) ON DELETE CASCADE,
        -- The file the votes were cast in (graph_paths.id): re-extracting it replaces them.
        path_id   INTEGER NOT NULL,
        type      TEXT NOT NULL,
        -- 'words' (the words around a mention), 'names' (only the first-name list), 'hint' (weak).
        kind      TEXT NOT NULL CHECK (kind IN ('words', 'names', 'hint')),
        count     INTEGER NOT NULL CHECK (count > 0),
        PRIMARY KEY (entity_id, path_id, type, kind)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX graph_type_votes_by_path ON graph_type_votes(path_id);
    `);
  },
};
