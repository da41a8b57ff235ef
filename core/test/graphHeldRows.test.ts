import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import type { MemoryService } from '../src/engine/memoryService.js';
import { extractionSteps, type IndexedFile } from '../src/graph/extractionSteps.js';
import { GraphWriter } from '../src/graph/graphWriter.js';
import { updateGraph } from '../src/graph/graphUpdate.js';
import { HeldRows, ROWS_PER_STATEMENT } from '../src/graph/heldRows.js';
import { emptyGraph, graphRows } from './helpers/graphSnapshot.js';
import { closedAfterEachTest } from './helpers/openedServices.js';

const open = closedAfterEachTest();

const db = (s: MemoryService) => (s as unknown as { db: Database.Database }).db;

/** A table like graph_entries: ids by SQLite, a trigger keeping per-group bounds, values rewritten on the way in. */
function entriesLike(): Database.Database {
  const d = new Database(':memory:');
  d.exec(`CREATE TABLE groups (id INTEGER PRIMARY KEY, first INTEGER, last INTEGER);
    CREATE TABLE rows (id INTEGER PRIMARY KEY, group_id INTEGER NOT NULL, n INTEGER NOT NULL, origin TEXT, note TEXT) STRICT;
    CREATE TRIGGER rows_extend AFTER INSERT ON rows BEGIN
      UPDATE groups SET first = min(coalesce(first, new.id), new.id), last = max(coalesce(last, new.id), new.id) WHERE id = new.group_id;
    END;
    INSERT INTO groups (id) VALUES (1), (2), (3);`);
  return d;
}

const everything = (d: Database.Database) => ({
  rows: d.prepare('SELECT * FROM rows ORDER BY id').raw().all(),
  groups: d.prepare('SELECT * FROM groups ORDER BY id').raw().all(),
});

/** Notes naming people, places and organisations, some first untyped then typed (a retype), with stated relations. */
function notes(count: number): Record<string, string> {
  const people = ['Dana Silva', 'Marek Nowak', 'Priya Rao', 'Tomás Ferreira', 'Jade Liang', 'Amara Obi'];
  const places = ['Porto', 'Lisbon', 'Nairobi', 'Berlin'];
  const files: Record<string, string> = { 'USER.md': '# User\n\nName: Mika Tanaka\n' };
  for (let f = 0; f < count; f++) {
    const date = new Date(Date.UTC(2025, 0, 1) + f * 86_400_000).toISOString().slice(0, 10);
    const a = people[f % people.length]!;
    const b = people[(f * 5 + 1) % people.length]!;
    const place = places[f % places.length]!;
    files[`memory/${date}.md`] = [
      `# ${date}`,
      '',
      `- lunch with ${a} and ${b} in ${place}.`,
      `- the Quillfin${f % 7} review went long; ${a} said Quillfin${f % 7} ships on Friday.`,
      `- ${b} works at Quillfin${(f + 3) % 7}.`,
      `- ${a} moved to ${places[(f + 1) % places.length]}.`,
      `- call with ${b} about ledgerd-${f % 4}. <!-- observed: 2024-0${1 + (f % 9)}-1${f % 9} -->`,
      '',
    ].join('\n');
  }
  return files;
}

describe('graph rows written together', () => {
  it('gives the rows, ids and trigger effects that one-row inserts give, across deletes between batches', () => {
    const alone = entriesLike();
    const together = entriesLike();
    const insert = alone.prepare("INSERT INTO rows (group_id, n, origin, note) VALUES (?, ?, nullif(?, 'owner'), ?)");
    const held = new HeldRows(together, 'rows', ['group_id', 'n', 'origin', 'note'], { origin: "nullif($, 'owner')" });
    const ids: number[][] = [[], []];
    const add = (values: [number, number, string, string | null]) => {
      ids[0]!.push(Number(insert.run(...values).lastInsertRowid));
      ids[1]!.push(held.add(values));
    };
    const batch = (from: number, count: number) => {
      for (let n = from; n < from + count; n++) add([1 + (n % 3), n, n % 4 === 0 ? 'agent' : 'owner', n % 5 === 0 ? null : `row ${n} “quoted”`]);
      held.write();
    };
    batch(0, ROWS_PER_STATEMENT * 2 + 7);
    // A forgotten file's rows were the last ones: SQLite gives their ids again, and so must the held rows.
    for (const d of [alone, together]) d.prepare('DELETE FROM rows WHERE id > ?').run(ROWS_PER_STATEMENT * 2);
    batch(5_000, 12);
    expect(ids[1]).toEqual(ids[0]);
    expect(ids[0]).toContain(ROWS_PER_STATEMENT * 2 + 1); // an id given again after the delete
    expect(everything(together)).toEqual(everything(alone));
    expect(everything(alone).rows.length).toBe(ROWS_PER_STATEMENT * 2 + 12);
  });

  it('writes a first extraction (entries, evidence and mentions held back) as the one-row writes would, row for row', async () => {
    const { service } = open(notes(60));
    await service.invoke('index.sync', {});
    const d = db(service);
    const files = d.prepare("SELECT path, abs_path, sha256, mtime_ms FROM files WHERE path LIKE '%.md' ORDER BY rowid").all() as IndexedFile[];
    const context = { writerName: 'Mika Tanaka' };
    // All in one transaction: a one-row writer counts pairs as it flushes, here only at the end, so its claim ids stay comparable.
    const write = (holding: boolean): Record<string, unknown[]> => {
      emptyGraph(d);
      const writer = new GraphWriter(d);
      d.transaction(() => {
        if (holding) writer.cooccurrence.startRebuild();
        for (const step of extractionSteps(d, writer, files, null, context)) step();
        writer.flush(true);
      })();
      const rows = graphRows(d);
      // Pairs: counted by the one-row writer, recounted after a held first extraction.
      return { ...rows, graph_claims: rows.graph_claims!.filter((c) => (c as unknown[])[2] !== 'mentioned_with'), graph_cooccurrence: [], graph_state: [] };
    };
    const held = write(true);
    const alone = write(false);
    // Enough rows for several statements, a retyped name, and stated claims with their evidence.
    expect(held.graph_mentions!.length).toBeGreaterThan(ROWS_PER_STATEMENT);
    expect(held.graph_claim_evidence!.length).toBeGreaterThan(20);
    expect(held.graph_entities!.some((e) => (e as unknown[])[2] === 'Quillfin0' && (e as unknown[])[1] === 'organization')).toBe(true);
    expect(held).toEqual(alone);
  });

  it('a first extraction stopped between slices leaves no entry without its mentions, and the next update finishes it', async () => {
    const { service } = open(notes(60));
    await service.invoke('index.sync', {});
    const d = db(service);
    const context = { extraction: { writerName: 'Mika Tanaka' }, parallelFromFiles: Infinity };
    emptyGraph(d);
    await updateGraph(d, context);
    const full = graphRows(d);

    emptyGraph(d);
    // Stopped once a slice has written entries (the mentions are still held then: fewer than a batch).
    const entries = d.prepare('SELECT count(*) FROM graph_entries').pluck();
    const mentionedEntries = d.prepare('SELECT count(DISTINCT entry_id) FROM graph_mentions').pluck();
    let heldSeen = false;
    await updateGraph(d, {
      ...context,
      shouldStop: () => {
        heldSeen ||= (entries.get() as number) > (mentionedEntries.get() as number);
        return heldSeen;
      },
    });
    expect(heldSeen).toBe(true);
    // What was held is written on the way out: every entry with its mentions, the finished files recorded.
    expect(d.prepare('SELECT count(*) FROM graph_entries g WHERE NOT EXISTS (SELECT 1 FROM graph_mentions m WHERE m.entry_id = g.id)').pluck().get()).toBe(0);
    const recorded = d.prepare('SELECT count(*) FROM graph_files').pluck().get() as number;
    expect(recorded).toBeGreaterThan(0);
    expect(recorded).toBeLessThan(full.graph_files!.length);

    // Resumed without extracting a recorded file again: the entries of a first extraction, by place and line, with the same names and statements.
    await updateGraph(d, context);
    const byLines = (x: Database.Database) =>
      x
        .prepare(
          `SELECT p.path, g.start_line, g.end_line, g.observed, group_concat(e.type || ':' || e.key, '|' ORDER BY e.type, e.key) FROM graph_entries g JOIN graph_paths p ON p.id = g.path_id
           JOIN graph_mentions m ON m.entry_id = g.id JOIN graph_entities e ON e.id = m.entity_id GROUP BY g.id ORDER BY 1, 2`,
        )
        .raw()
        .all();
    const resumed = { lines: byLines(d), files: graphRows(d).graph_files, claims: graphRows(d).graph_claims!.length, tallies: graphRows(d).graph_cooccurrence!.length };
    emptyGraph(d);
    await updateGraph(d, context);
    expect(graphRows(d)).toEqual(full);
    expect(resumed).toEqual({ lines: byLines(d), files: full.graph_files, claims: full.graph_claims!.length, tallies: full.graph_cooccurrence!.length });
  });
});
