/**
 * A file's graph entries without an index by path (migration 0018): `graph_paths` keeps the
 * smallest and largest id of the file's entries (a trigger extends them as entries are
 * written; a file's entries are written together, so the range holds little else), and the
 * entries are read as that range of row ids, filtered by path.
 */

/** SQL condition on the entries alias `g`: the entries of the graph_paths id bound as `@path_id`. */
export function entriesOfPath(g: string): string {
  return `${g}.id BETWEEN (SELECT first_entry FROM graph_paths WHERE id = @path_id) AND (SELECT last_entry FROM graph_paths WHERE id = @path_id) AND ${g}.path_id = @path_id`;
}
