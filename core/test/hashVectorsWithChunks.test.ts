import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openIndexDatabase } from '../src/index/database.js';
import { Embeddings } from '../src/index/embeddings.js';
import { IndexStore } from '../src/index/indexStore.js';
import { SILENT_LOGGER } from '../src/platform/log/logger.js';
import { Notices } from '../src/platform/notices.js';
import { createTempWorkspace, type TempWorkspace } from './helpers/workspace.js';

// A sync stores hash vectors with their chunks only while every chunk has one: the embedding
// pass decides "nothing to embed" from the newest chunk alone, so a newer chunk with a vector
// must never sit above an older one without.

let ws: TempWorkspace;
let store: IndexStore;
beforeEach(() => {
  ws = createTempWorkspace();
  store = new IndexStore(openIndexDatabase(path.join(ws.dataDir, 'index.sqlite'), { reclaim: false, disableVectorExtension: true }).db);
});
afterEach(() => {
  store.db.close();
  ws.cleanup();
});

it('offers the hash vector sink only while every chunk has its vector', async () => {
  const embeddings = new Embeddings({ models: { activeModel: () => null }, notices: new Notices(), logger: SILENT_LOGGER, emit: () => {}, isClosing: () => false });
  embeddings.attach(store, 'scan', null);
  expect(embeddings.hashVectorSink()?.dims).toBe(384); // an empty index: every chunk (none) has one

  const row = { path: 'memory/a.md', absPath: path.join(ws.root, 'memory/a.md'), source: 'memory' as const, sha256: 'x', mtimeMs: 0, size: 10, status: 'indexed' as const, reason: null };
  store.transaction(() => store.writeFile(row, [{ startLine: 1, endLine: 1, text: 'restic backups on the staging box' }]));
  expect(embeddings.hashVectorSink()).toBeNull(); // a chunk waits for the embedding pass

  const report = await embeddings.embedPending();
  expect(report.embedded).toBe(1);
  expect(embeddings.hashVectorSink()).not.toBeNull();
});
