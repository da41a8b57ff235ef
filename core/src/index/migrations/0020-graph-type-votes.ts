import type { Migration } from './types.js';

/**
 * A name's type from all its mentions (issue 19: the first file to name a thing fixed its type,
 * so "Vault", a place in one note and a tool in nine, stayed a place). Each mention keeps the
 * type its own words voted for (`graph_mentions.type_vote`, see `graph/workspaceTypes.ts`), so an
 * edit re-decides a name's type from the stored votes of every file rather than from a rebuild.
 * One small integer on the rows that exist anyway: no table or index of its own. The rules
 * version bump that came with it re-extracts the graph, which fills the column.
 */
export const migration0020: Migration = {
  version: 20,
  name: 'graph-type-votes',
  up(db) {
    // Already there when an index is migrated again from an older recorded version.
    const columns = db.prepare("SELECT name FROM pragma_table_info('graph_mentions')").pluck().all() as string[];
    if (!columns.includes('type_vote')) db.exec('ALTER TABLE graph_mentions ADD COLUMN type_vote INTEGER');
  },
};
