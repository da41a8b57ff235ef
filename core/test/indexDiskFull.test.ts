import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openIndexDatabase } from '../src/index/database.js';
import { IndexStore } from '../src/index/indexStore.js';
import { syncIndex } from '../src/index/sync.js';
import { createTempWorkspace, type TempWorkspace } from './helpers/workspace.js';

// A full disk, for real: SQLite's own page limit makes its writes fail with SQLITE_FULL exactly as
// a full file system does, at the page where the limit is hit.
describe('a disk that fills up during a first index', () => {
  let ws: TempWorkspace;
  afterEach(() => ws?.cleanup());

  it('stops with a sentence saying so, keeps what was indexed searchable, and the next sync indexes the rest', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 600; i++) files[`memory/n${String(i).padStart(3, '0')}.md`] = `# Note ${i}\n\n` + `- Fact ${i}: the quokka census counted ${i * 7} islands.\n`.repeat(30);
    ws = createTempWorkspace(files);
    fs.mkdirSync(ws.dataDir, { recursive: true });
    const file = path.join(ws.dataDir, 'index.sqlite');
    const { db } = openIndexDatabase(file);
    try {
      const store = new IndexStore(db);
      const emptyPages = db.pragma('page_count', { simple: true }) as number;
      // Room for part of the notes only (their kinds come after, outside the sync): ~400 KB, whatever the page size (chunk text is stored deflated).
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      db.pragma(`max_page_count = ${emptyPages + Math.ceil((400 * 1024) / pageSize)}`);
      const failure = await syncIndex(store, { workspaceRoot: ws.root, extraPaths: [] }, { maxFileBytes: 10 * 1024 * 1024 }).then(() => null, (e: unknown) => e as Error);
      expect(failure).not.toBeNull();
      expect(failure!.message).toMatch(new RegExp(`The disk holding the index \\(${escape(ws.dataDir)}\\) is full: indexing stopped with \\d+ of 600 files indexed`));
      expect(failure!.message).toContain('free some space and index again');
      const kept = store.counts().indexed;
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThan(600);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(failure!.message).toContain(`with ${kept} of 600`);

      db.pragma('max_page_count = 1073741823'); // space freed
      const report = await syncIndex(store, { workspaceRoot: ws.root, extraPaths: [] }, { maxFileBytes: 10 * 1024 * 1024 });
      expect(report.added).toBe(600 - kept);
      expect(store.counts().indexed).toBe(600);
    } finally {
      db.close();
    }
  });

  it('other write errors are not called a full disk', async () => {
    ws = createTempWorkspace({ 'memory/a.md': '# A\n\n- one line\n' });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-df-'));
    const { db } = openIndexDatabase(path.join(dir, 'index.sqlite'));
    try {
      const store = new IndexStore(db);
      db.pragma('query_only = ON'); // every write refused, for another reason than space
      const failure = await syncIndex(store, { workspaceRoot: ws.root, extraPaths: [] }, { maxFileBytes: 1024 * 1024 }).then(() => null, (e: unknown) => e as Error);
      expect(failure?.message).toMatch(/readonly|query_only|attempt to write/i);
      expect(failure?.message).not.toContain('is full');
    } finally {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
