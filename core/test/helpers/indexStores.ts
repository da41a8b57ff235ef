import path from 'node:path';
import { afterEach } from 'vitest';
import { openIndexDatabase } from '../../src/index/database.js';
import { IndexStore } from '../../src/index/indexStore.js';

/**
 * Index stores opened by name in a test's data folder (no reclaim, no vector extension: the
 * sync alone), each closed after its test: `const stores = storesClosedAfterEachTest(() => ws.dataDir)`.
 */
export function storesClosedAfterEachTest(dataDir: () => string): { open: (name: string) => IndexStore; readonly count: number } {
  const opened: IndexStore[] = [];
  afterEach(() => {
    for (const store of opened.splice(0)) store.db.close();
  });
  return {
    open(name: string): IndexStore {
      const { db } = openIndexDatabase(path.join(dataDir(), `${name}.sqlite`), { reclaim: false, disableVectorExtension: true });
      const store = new IndexStore(db);
      opened.push(store);
      return store;
    },
    get count(): number {
      return opened.length;
    },
  };
}
