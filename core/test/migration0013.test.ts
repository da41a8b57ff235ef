import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import type { MemoryService } from '../src/engine/memoryService.js';
import { migration0005 } from '../src/index/migrations/0005-graph-cooccurrence.js';
import { migration0006 } from '../src/index/migrations/0006-graph-model-extraction.js';
import { MIGRATIONS } from '../src/index/migrations/index.js';
import { graphSnapshot, indexDb } from './helpers/graphSnapshot.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace | undefined;
let service: MemoryService | undefined;
afterEach(async () => {
  await service?.close();
  ws?.cleanup();
  service = undefined;
  ws = undefined;
});

const NOTES: Record<string, string> = {
  ...SAMPLE_NOTES,
  'memory/2026-05-04.md': '# 2026-05-04\n\n- Dana Okafor owns the payments-gateway repo.\n- Kestrel runs on Heroku.\n- Lunch with Dana Okafor and Marco Bellini.\n',
  'memory/2026-05-20.md': '# 2026-05-20\n\n- Kestrel moved to kube-east.\n- Marco Bellini said the staging box is slow.\n',
};

/**
 * Puts the graph of an index back in the layout of migrations 0005–0012 (entries keyed by path
 * text, claims by a text key), with a stale graph the old version had extracted, at schema 12 (the rest of the index is current).
 */
function toPreviousLayout(file: string): void {
  const old = new Database(file);
  old.pragma('foreign_keys = ON');
  old.exec(`
    DROP TABLE graph_claim_evidence; DROP TABLE graph_mentions; DROP TABLE graph_cooccurrence; DROP TABLE graph_state;
    DROP TABLE graph_entries; DROP TABLE graph_paths; DROP TABLE graph_model_files;
    CREATE TABLE graph_evidence (id INTEGER PRIMARY KEY);
  `);
  migration0005.up(old);
  migration0006.up(old);
  old.exec(`
    INSERT INTO graph_entities (id, type, label, key, mentions) VALUES (1, 'person', 'Stale Person', 'stale person', 1), (2, 'person', 'Other Person', 'other person', 1);
    INSERT INTO graph_claims (id, key, subject_id, predicate, object_id, confidence) VALUES (1, '1|mentioned_with|e2', 1, 'mentioned_with', 2, 0.5);
    INSERT INTO graph_entries (id, path, start_line, end_line, origin, tool) VALUES (1, 'MEMORY.md', 3, 3, 'owner', 'workspace');
    INSERT INTO graph_mentions (entity_id, entry_id, cooccurs) VALUES (1, 1, 1), (2, 1, 1);
    INSERT INTO graph_cooccurrence (subject_id, object_id, tool, origin, entries, undated) VALUES (1, 2, 'workspace', 'owner', 1, 1);
    INSERT INTO graph_files (path, sha256, entries, extracted_at) SELECT path, sha256, 1, 0 FROM files WHERE source = 'memory';
  `);
  old.pragma('user_version = 12');
  expect(old.pragma('foreign_key_check')).toEqual([]);
  old.close();
}

describe('migration 0013: the compact graph layout', () => {
  it('replaces a graph of the previous layout; search works before the graph is extracted again, and the new graph equals a fresh one', async () => {
    ws = createTempWorkspace(NOTES);
    service = openService(ws);
    await service.invoke('index.sync', {});
    const fresh = graphSnapshot(indexDb(service));
    expect(fresh.claims.some((c) => c.includes('-owns->'))).toBe(true);
    const file = service.indexPath;
    await service.close();
    toPreviousLayout(file);

    service = openService(ws);
    const d = indexDb(service);
    expect(d.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    // The new layout: no text keys or paths per row, and nothing of the old graph is left.
    const columns = (table: string) => (d.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all() as string[]).sort();
    expect(columns('graph_entries')).not.toContain('path');
    expect(columns('graph_entries')).toContain('path_id');
    expect(columns('graph_claims')).not.toContain('key');
    expect(d.prepare('SELECT count(*) FROM graph_entities').pluck().get()).toBe(0);
    expect(d.prepare('SELECT count(*) FROM graph_files').pluck().get()).toBe(0);
    // Search never waited for the graph: chunks and vectors were kept.
    const before = await service.invoke('memory.search', { query: 'restic backups' });
    expect(before.results[0]?.path).toBe('MEMORY.md');

    await service.invoke('index.sync', {});
    expect(await service.invoke('graph.search', { text: 'Stale Person' })).toEqual({ entities: [] });
    expect(graphSnapshot(d)).toEqual(fresh);
    expect(d.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(d.pragma('foreign_key_check')).toEqual([]);
  });

  it('stores no entry that names nothing, and one path row per file with entries', async () => {
    ws = createTempWorkspace({ 'memory/2026-06-01.md': '# 2026-06-01\n\n- quiet day, nothing much.\n- Dana Okafor owns the payments-gateway repo.\n- slept early.\n' });
    service = openService(ws);
    await service.invoke('index.sync', {});
    const d = indexDb(service);
    const entries = d.prepare('SELECT p.path, g.start_line FROM graph_entries g JOIN graph_paths p ON p.id = g.path_id').raw().all();
    expect(entries).toEqual([['memory/2026-06-01.md', 4]]);
    expect(d.prepare('SELECT entries FROM graph_files').pluck().get()).toBe(3);
    // Forgetting the file removes its path row with its entries.
    fs.rmSync(path.join(ws.root, 'memory/2026-06-01.md'));
    await service.invoke('index.sync', {});
    expect(d.prepare('SELECT count(*) FROM graph_paths').pluck().get()).toBe(0);
    expect(d.prepare('SELECT count(*) FROM graph_entries').pluck().get()).toBe(0);
  });
});
