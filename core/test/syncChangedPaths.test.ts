import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type IndexStore } from '../src/index/indexStore.js';
import { syncIndex, type SyncOptions } from '../src/index/sync.js';
import { storesClosedAfterEachTest } from './helpers/indexStores.js';
import { createTempWorkspace, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

// A sync of the changed paths (what the watcher reports) must leave the index exactly as a whole
// sync of the same disk would, while reading only those paths.

let ws: TempWorkspace;
const stores = storesClosedAfterEachTest(() => ws.dataDir);
/** Files the last syncs read, by workspace-relative path. */
let reads: string[] = [];
/** Reads of these files fail as an unreadable file's would (as root, permissions do not stop reads). */
const lockedFiles = new Set<string>();

const EXTRA_PATHS = ['notes', 'memory/projects'];

beforeEach(() => {
  ws = createTempWorkspace({ ...SAMPLE_NOTES, 'notes/reading.md': '# Reading\n- [ ] ask Sam about Piranesi\n', 'notes/deep/ideas.md': '# Ideas\n- Tomorrow: sketch the canal walk.\n' });
  reads = [];
  lockedFiles.clear();
});
afterEach(() => {
  ws.cleanup();
});

const openStore = stores.open;

const options: SyncOptions = {
  maxFileBytes: 1024 * 1024,
  readBytes: async (absPath) => {
    const rel = path.relative(ws.root, absPath);
    reads.push(rel);
    if (lockedFiles.has(rel)) throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    return fs.promises.readFile(absPath);
  },
};
const discovery = () => ({ workspaceRoot: ws.root, extraPaths: EXTRA_PATHS });

/** Everything a sync writes for the workspace's files (not the ids or write times). */
function snapshot(store: IndexStore) {
  const files = store.db.prepare('SELECT path, abs_path, source, sha256, mtime_ms, size, status, reason FROM files ORDER BY path').all() as Array<{ path: string }>;
  return {
    files,
    chunks: store.db.prepare('SELECT path, source, start_line, end_line, text, origin, session_kind, observed_at FROM chunks ORDER BY path, start_line').all(),
    grams: store.db.prepare('SELECT c.path, c.start_line, g.terms FROM chunks_grams g JOIN chunks c ON c.id = g.rowid ORDER BY 1, 2').all(),
    kinds: files.map((f) => [f.path, store.kindsWithin(f.path, 1, 1_000_000)]),
    lineDates: store.db.prepare('SELECT path, line, day_from, day_to, precision FROM line_dates ORDER BY 1, 2, 3, 4').all(),
  };
}

/** The index a whole sync of the disk as it is now gives, from an empty index. */
async function wholeSyncSnapshot() {
  const store = openStore(`whole-${stores.count}`);
  await syncIndex(store, discovery(), options);
  return snapshot(store);
}

describe('a sync of the changed paths', () => {
  let store: IndexStore;
  const abs = (rel: string) => path.join(ws.root, rel);
  const syncChanged = async (...rels: string[]) => {
    reads = [];
    return syncIndex(store, discovery(), { ...options, changedPaths: rels.map(abs) });
  };

  beforeEach(async () => {
    store = openStore('watched');
    await syncIndex(store, discovery(), options);
  });

  it('indexes an edited note and reads nothing else', async () => {
    ws.write('memory/2026-04-05.md', '# 2026-04-05\n\n- [ ] Dentist appointment cancelled; rebooked for May 12.\n');
    const report = await syncChanged('memory/2026-04-05.md');
    expect(report).toMatchObject({ updated: 1, added: 0, removed: 0, files: 9 });
    expect(reads).toEqual(['memory/2026-04-05.md']);
    expect(snapshot(store)).toEqual(await wholeSyncSnapshot());
  });

  it('leaves files it was not told about as they were (the scope is real)', async () => {
    ws.write('memory/2026-04-06.md', '# 2026-04-06\n- changed behind the watcher’s back\n');
    ws.write('memory/2026-04-05.md', '# 2026-04-05\n- rebooked\n');
    await syncChanged('memory/2026-04-05.md');
    expect(snapshot(store)).not.toEqual(await wholeSyncSnapshot());
    await syncIndex(store, discovery(), options); // the next whole sync (start, watcher error) catches up
    expect(snapshot(store)).toEqual(await wholeSyncSnapshot());
  });

  it('adds a note, removes a deleted one, and follows a rename (its two paths)', async () => {
    ws.write('memory/2026-04-10.md', '# 2026-04-10\n- Next week: call the plumber.\n');
    ws.remove('memory/2026-04-01.md');
    fs.renameSync(abs('memory/2026-04-06.md'), abs('memory/2026-04-06-atlas.md'));
    const report = await syncChanged('memory/2026-04-10.md', 'memory/2026-04-01.md', 'memory/2026-04-06.md', 'memory/2026-04-06-atlas.md');
    expect(report).toMatchObject({ added: 2, removed: 2, updated: 0 });
    expect(reads.sort()).toEqual(['memory/2026-04-06-atlas.md', 'memory/2026-04-10.md']);
    expect(snapshot(store)).toEqual(await wholeSyncSnapshot());
  });

  it('walks a new folder whole, and drops a removed folder with everything below it', async () => {
    ws.write('memory/trips/2026/lisbon.md', '# Lisbon\n- Flights booked for 2026-05-03.\n');
    ws.write('memory/trips/packing.md', '# Packing\n- [ ] adapter\n');
    expect(await syncChanged('memory/trips')).toMatchObject({ added: 2 });
    expect(snapshot(store)).toEqual(await wholeSyncSnapshot());

    ws.remove('notes/deep');
    ws.remove('memory/trips');
    expect(await syncChanged('notes/deep', 'memory/trips')).toMatchObject({ removed: 3, added: 0 });
    expect(snapshot(store)).toEqual(await wholeSyncSnapshot());
  });

  it('ignores paths a whole sync ignores (dot-folders, node_modules, other extensions)', async () => {
    ws.write('memory/.obsidian/workspace.md', '# not a note\n');
    ws.write('memory/node_modules/pkg/README.md', '# not a note\n');
    ws.write('memory/todo.txt', 'not markdown\n');
    const report = await syncChanged('memory/.obsidian/workspace.md', 'memory/node_modules', 'memory/todo.txt', 'src/app.md');
    expect(report).toMatchObject({ added: 0, updated: 0, removed: 0, files: 9 });
    expect(reads).toEqual([]);
    expect(snapshot(store)).toEqual(await wholeSyncSnapshot());
  });

  it('records a note that became unreadable as failed, and indexes it again once readable', async () => {
    ws.write('memory/2026-04-05.md', '# 2026-04-05\n- locked away\n');
    lockedFiles.add('memory/2026-04-05.md');
    expect(await syncChanged('memory/2026-04-05.md')).toMatchObject({ failed: 1, problems: [{ path: 'memory/2026-04-05.md', status: 'failed', reason: 'unreadable (permission denied, EACCES)' }] });
    expect(snapshot(store)).toEqual(await wholeSyncSnapshot());
    lockedFiles.clear();
    fs.utimesSync(abs('memory/2026-04-05.md'), new Date(), new Date(Date.now() + 2000));
    expect(await syncChanged('memory/2026-04-05.md')).toMatchObject({ updated: 1, failed: 0 });
    expect(snapshot(store)).toEqual(await wholeSyncSnapshot());
  });

  it('takes the last content of a path changed twice before the sync', async () => {
    ws.write('memory/2026-04-05.md', '# 2026-04-05\n- first draft\n');
    ws.write('memory/2026-04-05.md', '# 2026-04-05\n- second draft, with a date: 2026-04-20\n');
    await syncChanged('memory/2026-04-05.md', 'memory/2026-04-05.md');
    expect(snapshot(store)).toEqual(await wholeSyncSnapshot());
  });

  it('keeps the whole sync’s rules for root files, extra paths reached twice and links', async () => {
    // memory.md is shadowed by MEMORY.md; memory/projects is also an extra path (listed once); a link is reported, not followed.
    ws.write('memory.md', '# lower-case memory\n');
    ws.write('MEMORY.md', '# Memory\n- The NAS is called atlas.\n');
    ws.write('memory/projects/ledgerd.md', '# ledgerd\n- Release v2.5 planned for June.\n');
    ws.write('notes/reading.md', '# Reading\n- [x] asked Sam about Piranesi\n');
    fs.symlinkSync(abs('USER.md'), abs('memory/user-link.md'));
    const report = await syncChanged('memory.md', 'MEMORY.md', 'memory/projects/ledgerd.md', 'notes/reading.md', 'memory/user-link.md');
    expect(report.problems.map((p) => [p.path, p.reason])).toEqual([
      ['memory.md', 'shadowed by MEMORY.md'],
      ['memory/user-link.md', 'symlink (not followed)'],
    ]);
    expect(snapshot(store)).toEqual(await wholeSyncSnapshot());

    fs.rmSync(abs('MEMORY.md'));
    await syncChanged('MEMORY.md'); // memory.md is no longer shadowed, though only MEMORY.md was reported
    expect(snapshot(store)).toEqual(await wholeSyncSnapshot());
  });

  it('finds a note reported under the extra path that reaches it second', async () => {
    ws.write('memory/projects/ledgerd.md', '# ledgerd\n- Moved to the new cluster.\n');
    // The extra path's watcher reports it through a link to the folder: the index names it under memory/.
    fs.symlinkSync(abs('memory/projects'), abs('projects-link'));
    await syncIndex(store, { workspaceRoot: ws.root, extraPaths: [...EXTRA_PATHS] }, { ...options, changedPaths: [abs('projects-link/ledgerd.md')] });
    expect(snapshot(store)).toEqual(await wholeSyncSnapshot());
  });

  it('syncs every file when the index has never been synced or the sync is forced', async () => {
    const fresh = openStore('fresh');
    const report = await syncIndex(fresh, discovery(), { ...options, changedPaths: [abs('memory/2026-04-05.md')] });
    expect(report.added).toBe(9);
    ws.write('memory/2026-04-06.md', '# 2026-04-06\n- changed behind the watcher’s back\n');
    reads = [];
    await syncIndex(store, discovery(), { ...options, force: true, changedPaths: [abs('memory/2026-04-05.md')] });
    expect(reads.length).toBe(9);
    expect(snapshot(store)).toEqual(await wholeSyncSnapshot());
  });
});
