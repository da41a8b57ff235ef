import { afterEach } from 'vitest';
import type Database from 'better-sqlite3';
import type { MemoryService } from '../../src/engine/memoryService.js';
import { indexDb } from './graphSnapshot.js';
import { createTempWorkspace, openService, type TempWorkspace } from './workspace.js';

/**
 * One temporary workspace and engine per test, closed after it: the set-up the graph judgment tests share.
 * `indexed(files)` writes the notes, runs a full sync and hands back the index database to query.
 */
export function indexedWorkspaces(): { indexed(files: Record<string, string>): Promise<Database.Database>; service(): MemoryService; workspace(): TempWorkspace } {
  let ws: TempWorkspace | undefined;
  let service: MemoryService | undefined;
  afterEach(async () => {
    await service?.close();
    ws?.cleanup();
    service = undefined;
    ws = undefined;
  });
  return {
    async indexed(files) {
      ws = createTempWorkspace(files);
      service = openService(ws);
      await service.invoke('index.sync', {});
      return indexDb(service);
    },
    service() {
      if (!service) throw new Error('no engine is open: call indexed(files) first');
      return service;
    },
    workspace() {
      if (!ws) throw new Error('no workspace yet: call indexed(files) first');
      return ws;
    },
  };
}
