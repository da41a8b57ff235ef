import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../src/index/migrations/index.js';
import { loadVectorExtension } from '../src/index/vectorStore.js';
import { graphSnapshot, indexDb } from './helpers/graphSnapshot.js';
import { closedAfterEachTest, type OpenedWorkspace } from './helpers/openedServices.js';
import { openService, SAMPLE_NOTES } from './helpers/workspace.js';

const open = closedAfterEachTest();

const NOTES: Record<string, string> = {
  ...SAMPLE_NOTES,
  'memory/2026-05-04.md': '# 2026-05-04\n\n- Lunch with Dana Okafor and Marco Bellini.\n- Kestrel runs on Heroku.\n',
  'memory/2026-05-11.md': '# 2026-05-11\n\n- Dana Okafor and Marco Bellini reviewed the payments-gateway repo.\n',
  'memory/2026-05-20.md': '# 2026-05-20\n\n- Dana Okafor paired with Marco Bellini on the staging box.\n- Kestrel moved to kube-east.\n',
};
const EDITED = 'memory/2026-05-11.md';
const EDITED_TEXT = '# 2026-05-11\n\n- Marco Bellini owns the payments-gateway repo.\n';
/** An entry of another provenance, added to the old layout by hand (as an imported agent's line would be). */
const UNUSUAL_ENTRY = { id: 100000, origin: 'agent', tool: 'hermes' };

const ENTRY_ROWS = 'SELECT id, path_id, start_line, end_line, chunk_id, dream_run, origin, tool, observed FROM graph_entries ORDER BY id';

/** The index as version 18 left it: origin and tool stored as text in every entry (the layout of migration 0013). */
function toVersion18(file: string): void {
  const old = new Database(file);
  // The chunks' vector trigger names vec0: a rename re-reads the whole schema.
  loadVectorExtension(old);
  // SQLite's rebuild of a referenced table: foreign keys off, a new table takes the old one's place.
  old.pragma('foreign_keys = OFF');
  old.exec(`
    DROP TRIGGER graph_entries_extend_path;
    CREATE TABLE graph_entries_18 (
      id         INTEGER PRIMARY KEY,
      path_id    INTEGER NOT NULL,
      start_line INTEGER NOT NULL CHECK (start_line >= 1),
      end_line   INTEGER NOT NULL CHECK (end_line >= start_line),
      chunk_id   INTEGER,
      dream_run  TEXT,
      origin     TEXT NOT NULL CHECK (origin IN ('owner', 'agent', 'untrusted', 'system')),
      tool       TEXT NOT NULL,
      observed   TEXT
    ) STRICT;
    INSERT INTO graph_entries_18 SELECT id, path_id, start_line, end_line, chunk_id, dream_run, origin, tool, observed FROM graph_entries;
    DROP TABLE graph_entries;
    ALTER TABLE graph_entries_18 RENAME TO graph_entries;
    CREATE TRIGGER graph_entries_extend_path AFTER INSERT ON graph_entries BEGIN
      UPDATE graph_paths SET first_entry = min(coalesce(first_entry, new.id), new.id), last_entry = max(coalesce(last_entry, new.id), new.id) WHERE id = new.path_id;
    END;
    DELETE FROM meta WHERE key = 'compact_after_upgrade';
  `);
  old.pragma('foreign_keys = ON');
  // Not named by any mention: the graph's answers stay those of the notes.
  old.prepare("INSERT INTO graph_entries (id, path_id, start_line, end_line, origin, tool, observed) VALUES (?, (SELECT min(id) FROM graph_paths), 1, 1, ?, ?, '2026-05-04')").run(
    UNUSUAL_ENTRY.id,
    UNUSUAL_ENTRY.origin,
    UNUSUAL_ENTRY.tool,
  );
  old.pragma('user_version = 18');
  expect(old.pragma('foreign_key_check')).toEqual([]);
  old.close();
}

describe('migration 0019: graph entries store nothing for the usual provenance', () => {
  it('rebuilds the entries of a version 18 index in place: every row, link and answer kept; later writes store the same', async () => {
    const old = open(NOTES);
    await old.service.invoke('index.sync', {});
    const file = old.service.indexPath;
    const graphBefore = graphSnapshot(indexDb(old.service));
    const mentionsBefore = indexDb(old.service).prepare('SELECT entity_id, entry_id, cooccurs, by_model FROM graph_mentions ORDER BY 1, 2').raw().all();
    await old.service.close();
    (old as OpenedWorkspace).service = undefined;
    toVersion18(file);
    const rowsBefore = new Database(file, { readonly: true }).prepare(ENTRY_ROWS).raw().all();
    expect(rowsBefore.length).toBeGreaterThan(5);

    const reopened = openService(old.ws);
    old.service = reopened;
    const d = indexDb(reopened);
    expect(d.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    // The same rows read back, the usual provenance stored as NULL, the rest as it was.
    expect(d.prepare(ENTRY_ROWS).raw().all()).toEqual(rowsBefore);
    expect(d.prepare("SELECT count(*) FROM graph_entries WHERE origin_class IS NOT NULL OR source_tool IS NOT NULL").pluck().get()).toBe(1);
    expect(d.prepare('SELECT origin_class, source_tool FROM graph_entries WHERE id = ?').raw().get(UNUSUAL_ENTRY.id)).toEqual([UNUSUAL_ENTRY.origin, UNUSUAL_ENTRY.tool]);
    // Nothing went with the old table: mentions, foreign keys and the graph's answers are intact.
    expect(d.prepare('SELECT entity_id, entry_id, cooccurs, by_model FROM graph_mentions ORDER BY 1, 2').raw().all()).toEqual(mentionsBefore);
    expect(d.pragma('foreign_key_check')).toEqual([]);
    expect(graphSnapshot(d)).toEqual(graphBefore);
    expect(d.prepare("SELECT value FROM meta WHERE key = 'compact_after_upgrade'").pluck().get()).toBe('pending');
    expect(() => d.prepare("INSERT INTO graph_entries (path_id, start_line, end_line, source_tool) VALUES (1, 1, 1, 'workspace')").run()).toThrow(/CHECK constraint/);

    // A file written again after the upgrade: the graph equals a fresh index's, its new entries in their id range.
    fs.writeFileSync(path.join(old.ws.root, EDITED), EDITED_TEXT);
    await reopened.invoke('index.sync', {});
    d.prepare('DELETE FROM graph_entries WHERE id = ?').run(UNUSUAL_ENTRY.id);
    const fresh = open({ ...NOTES, [EDITED]: EDITED_TEXT });
    await fresh.service.invoke('index.sync', {});
    expect(graphSnapshot(d)).toEqual(graphSnapshot(indexDb(fresh.service)));
    const inRange = d.prepare(
      "SELECT count(*) FROM graph_entries g JOIN graph_paths p ON p.id = g.path_id WHERE p.path = ? AND g.id BETWEEN p.first_entry AND p.last_entry AND g.origin = 'owner' AND g.tool = 'workspace'",
    );
    expect(inRange.pluck().get(EDITED)).toBeGreaterThan(0);
    expect(d.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});
