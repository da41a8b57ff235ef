import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openIndexDatabase } from '../src/index/database.js';
import { IndexStore } from '../src/index/indexStore.js';
import { ingestTranscripts } from '../src/sessions/ingestTranscripts.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'sessions');
let base: string;
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

describe('a transcript whose batch cannot be written', () => {
  it('fails with the write error, the files queued on its reader are read again by the next sync, the rest are indexed', async () => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-reader-failure-')));
    const homes = { 'claude-code': path.join(base, 'claude-home'), openclaw: path.join(base, 'openclaw-home') };
    fs.cpSync(path.join(fixtures, 'claude-code'), homes['claude-code'], { recursive: true });
    fs.cpSync(path.join(fixtures, 'openclaw'), homes.openclaw, { recursive: true });
    const { db } = openIndexDatabase(path.join(base, 'index.sqlite'), { reclaim: false });
    try {
      const store = new IndexStore(db);
      // A real SQLite failure in the middle of one file's batch (as a full disk would be).
      db.exec(`CREATE TRIGGER refuse_subagent BEFORE INSERT ON transcript_lines WHEN new.path LIKE '%agent-a1b2c3d%' BEGIN SELECT RAISE(ABORT, 'no space left (test)'); END`);
      const first = await ingestTranscripts(db, store, homes, { maxBytes: 64 * 1024 * 1024, readers: 1, quietMs: 0 });
      const failed = first.problems.filter((p) => p.status === 'failed');
      expect(failed.find((p) => p.path.includes('agent-a1b2c3d'))?.reason).toBe('unreadable (SQLITE_CONSTRAINT_TRIGGER)');
      // Anything else that failed was queued behind it on the stopped reader, and says so.
      for (const p of failed.filter((p) => !p.path.includes('agent-a1b2c3d'))) expect(p.reason).toContain('its reader stopped before reading it');
      expect(first.added).toBe(first.transcripts - first.failed);
      expect(first.added).toBeGreaterThan(0);

      db.exec('DROP TRIGGER refuse_subagent');
      const second = await ingestTranscripts(db, store, homes, { maxBytes: 64 * 1024 * 1024, readers: 1, quietMs: 0 });
      expect(second).toMatchObject({ failed: 0, added: first.failed });
      expect(db.prepare("SELECT count(*) FROM files WHERE source = 'sessions' AND status = 'indexed'").pluck().get()).toBe(first.transcripts);
    } finally {
      db.close();
    }
  }, 60_000);
});
