import { afterEach } from 'vitest';
import type { MemoryService } from '../../src/engine/memoryService.js';
import { createTempWorkspace, openService, type TempWorkspace } from './workspace.js';

/** A temp workspace and its service; a test may close the service and set it to undefined (or to a reopened one). */
export interface OpenedWorkspace {
  ws: TempWorkspace;
  service: MemoryService | undefined;
}

/**
 * For a test file that opens several workspaces per test: returns `open(notes)`, and after each
 * test closes every service still open and removes every workspace it opened.
 */
export function closedAfterEachTest(): (notes: Record<string, string>) => OpenedWorkspace & { service: MemoryService } {
  const opened: OpenedWorkspace[] = [];
  afterEach(async () => {
    for (const o of opened.splice(0)) {
      await o.service?.close();
      o.ws.cleanup();
    }
  });
  return (notes) => {
    const ws = createTempWorkspace(notes);
    const o = { ws, service: openService(ws) };
    opened.push(o);
    return o;
  };
}
