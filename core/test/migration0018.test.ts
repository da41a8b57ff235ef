import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { INDEX_PAGE_SIZE } from '../src/index/database.js';
import { MIGRATIONS } from '../src/index/migrations/index.js';
import { loadVectorExtension } from '../src/index/vectorStore.js';
import { graphSnapshot, indexDb } from './helpers/graphSnapshot.js';
import { closedAfterEachTest, type OpenedWorkspace } from './helpers/openedServices.js';
import { openService, SAMPLE_NOTES } from './helpers/workspace.js';

const open = closedAfterEachTest();

// Dana and Marco are named together on three days: a stored pair dated by the earliest.
const NOTES: Record<string, string> = {
  ...SAMPLE_NOTES,
  'memory/2026-05-04.md': '# 2026-05-04\n\n- Lunch with Dana Okafor and Marco Bellini.\n- Kestrel runs on Heroku.\n',
  'memory/2026-05-11.md': '# 2026-05-11\n\n- Dana Okafor and Marco Bellini reviewed the payments-gateway repo.\n',
  'memory/2026-05-20.md': '# 2026-05-20\n\n- Dana Okafor paired with Marco Bellini on the staging box.\n- Kestrel moved to kube-east.\n',
};
const EDITED = 'memory/2026-05-04.md';
const EDITED_TEXT = '# 2026-05-04\n\n- Lunch alone.\n- Kestrel runs on Heroku.\n';

/** The index as version 17 left it: graph entries indexed by date and by path, no id ranges per path, no compaction asked for. */
function toVersion17(file: string): void {
  const old = new Database(file);
  // The chunks' vector trigger names vec0: a column drop re-reads the whole schema.
  loadVectorExtension(old);
  old.exec(`
    DROP TRIGGER graph_entries_extend_path;
    ALTER TABLE graph_paths DROP COLUMN first_entry;
    ALTER TABLE graph_paths DROP COLUMN last_entry;
    CREATE INDEX graph_entries_by_path ON graph_entries(path_id);
    CREATE INDEX graph_entries_by_observed ON graph_entries(observed);
    DELETE FROM meta WHERE key = 'compact_after_upgrade';
  `);
  old.pragma('user_version = 17');
  old.close();
}

const hasIndex = (d: Database.Database, name: string) => d.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").get(name) !== undefined;
/** Every path's id range holds all of its entries, and every path with entries has one. */
function expectRangesHoldEntries(d: Database.Database): void {
  const outside = d
    .prepare('SELECT count(*) FROM graph_entries g JOIN graph_paths p ON p.id = g.path_id WHERE p.first_entry IS NULL OR g.id NOT BETWEEN p.first_entry AND p.last_entry')
    .pluck()
    .get();
  expect(outside).toBe(0);
  expect(d.prepare('SELECT count(*) FROM graph_paths').pluck().get()).toBeGreaterThan(0);
}

const pairDate = (d: Database.Database) =>
  d
    .prepare(
      `SELECT c.valid_from FROM graph_claims c JOIN graph_entities s ON s.id = c.subject_id JOIN graph_entities o ON o.id = c.object_id
       WHERE c.predicate = 'mentioned_with' AND ((s.key = 'dana okafor' AND o.key = 'marco bellini') OR (s.key = 'marco bellini' AND o.key = 'dana okafor'))`,
    )
    .pluck()
    .get();

describe('migration 0018: graph entries not indexed by date or path', () => {
  it('migrates a version 17 index in place: search and graph unchanged, a forgotten earliest date recomputed as a fresh index has it', async () => {
    const old = open(NOTES);
    await old.service.invoke('index.sync', {});
    const graphBefore = graphSnapshot(indexDb(old.service));
    expect(pairDate(indexDb(old.service))).toBe('2026-05-04');
    const searchBefore = (await old.service.invoke('memory.search', { query: 'restic backups', recall: false })).results.map((r) => `${r.path}:${r.startLine}`);
    const file = old.service.indexPath;
    await old.service.close();
    (old as OpenedWorkspace).service = undefined;
    toVersion17(file);

    const reopened = openService(old.ws);
    old.service = reopened;
    const d = indexDb(reopened);
    expect(d.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    expect(hasIndex(d, 'graph_entries_by_observed')).toBe(false);
    expect(hasIndex(d, 'graph_entries_by_path')).toBe(false);
    expectRangesHoldEntries(d);
    // The freed pages are given back after the next sync's derived work, when worth a rewrite.
    expect(d.prepare("SELECT value FROM meta WHERE key = 'compact_after_upgrade'").pluck().get()).toBe('pending');
    // Nothing was rebuilt: search and the graph answer as before, without a sync.
    expect((await reopened.invoke('memory.search', { query: 'restic backups', recall: false })).results.map((r) => `${r.path}:${r.startLine}`)).toEqual(searchBefore);
    expect(graphSnapshot(d)).toEqual(graphBefore);

    // The pair's earliest entry goes: its date is read again from the remaining entries.
    fs.writeFileSync(path.join(old.ws.root, EDITED), EDITED_TEXT);
    await reopened.invoke('index.sync', {});
    expect(pairDate(d)).toBe('2026-05-11');
    const fresh = open({ ...NOTES, [EDITED]: EDITED_TEXT });
    await fresh.service.invoke('index.sync', {});
    expect(graphSnapshot(d)).toEqual(graphSnapshot(indexDb(fresh.service)));
    expectRangesHoldEntries(d);
    expect(d.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('creates a new index without the date index, in pages of INDEX_PAGE_SIZE', async () => {
    const { service } = open(NOTES);
    await service.invoke('index.sync', {});
    const d = indexDb(service);
    expect(hasIndex(d, 'graph_entries_by_observed')).toBe(false);
    expect(hasIndex(d, 'graph_entries_by_path')).toBe(false);
    expectRangesHoldEntries(d);
    expect(d.pragma('page_size', { simple: true })).toBe(INDEX_PAGE_SIZE);
    expect(d.prepare("SELECT value FROM meta WHERE key = 'compact_after_upgrade'").pluck().get()).toBeUndefined();
  });
});
