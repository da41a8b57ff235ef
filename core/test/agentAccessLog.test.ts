import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AccessLog, type AccessRecord } from '../src/agents/accessLog.js';
import { openAgentDatabase } from '../src/agents/agentDatabase.js';
import { AgentRegistry } from '../src/agents/agentRegistry.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const call = (agentId: string, at: string): AccessRecord => ({
  agentId,
  agentName: 'reader',
  at,
  method: 'memory.search',
  detail: 'restic   backups',
  results: 3,
  ok: true,
  error: null,
  durationMs: 4.2,
  transport: 'socket',
});

describe('agent access log', () => {
  it('writes queued calls on close, and a call that ends after the store closed is dropped instead of failing later', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-log-'));
    const { db } = openAgentDatabase(path.join(dir, 'agents.sqlite'));
    const registry = new AgentRegistry(db);
    const { agent } = registry.add('reader', false);
    const log = new AccessLog(db, registry);
    log.record(call(agent.id, '2026-11-30T10:00:00.000Z'));
    log.close();
    expect(log.list(undefined, 10)).toMatchObject([{ agent: 'reader', method: 'memory.search', detail: 'restic backups', results: 3 }]);
    db.close();
    // A search that was still running when the host closed: its log line has nowhere to go.
    log.record(call(agent.id, '2026-11-30T10:00:01.000Z'));
    expect(() => log.flush()).not.toThrow();
    // Past the flush delay: an armed timer writing to the closed database would surface as an unhandled error here.
    await new Promise((resolve) => setTimeout(resolve, 300));
  });
});
