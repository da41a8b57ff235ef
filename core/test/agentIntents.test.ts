import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAgentDatabase } from '../src/agents/agentDatabase.js';
import { IntentStore, type IntentInput } from '../src/agents/intents/intentStore.js';
import { ReverieError } from '../src/platform/errors.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const START = Date.parse('2026-05-01T09:00:00.000Z');

let dir: string;
let db: Database.Database;
let clock: number;
let store: IntentStore;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-intents-'));
  db = openAgentDatabase(path.join(dir, 'agents', 'ws.sqlite')).db;
  clock = START;
  store = new IntentStore(db, () => clock);
});

afterEach(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const defaults: IntentInput = { description: 'Remind about the Friday deploy freeze', keywords: ['deploy'], expiresInDays: 90, fireBudget: 3, cooldownHours: 24 };

describe('IntentStore', () => {
  it('creates an armed intent with an id, dates and its creator', () => {
    const intent = store.create({ ...defaults, keywords: [' deploy ', 'deploy', 'release train'] }, 'agent:abc');
    expect(intent).toEqual({
      id: expect.stringMatching(/^intent:[A-Za-z0-9_-]+$/),
      description: 'Remind about the Friday deploy freeze',
      keywords: ['deploy', 'release train'],
      project: null,
      createdBy: 'agent:abc',
      createdAt: '2026-05-01T09:00:00.000Z',
      expiresAt: '2026-07-30T09:00:00.000Z',
      fireBudget: 3,
      fired: 0,
      cooldownHours: 24,
      lastFiredAt: null,
      status: 'armed',
    });
    expect(store.list(false)).toEqual([intent]);
    expect(store.create(defaults, null).id).not.toBe(intent.id);
  });

  it('refuses blank keywords', () => {
    expect(() => store.create({ ...defaults, keywords: ['  '] }, null)).toThrow(ReverieError);
  });

  it('goes armed → fires → cooling-down → armed after the cooldown → exhausted after the budget', () => {
    const intent = store.create(defaults, null);
    const first = store.matchAndFire('I am deploying the app now');
    expect(first.map((i) => [i.id, i.fired, i.status, i.lastFiredAt])).toEqual([[intent.id, 1, 'cooling-down', '2026-05-01T09:00:00.000Z']]);
    expect(store.matchAndFire('another deploy')).toEqual([]);

    clock += 23 * HOUR;
    expect(store.list(false)[0]!.status).toBe('cooling-down');
    expect(store.matchAndFire('deploy again')).toEqual([]);

    clock += HOUR;
    expect(store.list(false)[0]!.status).toBe('armed');
    expect(store.matchAndFire('Deploys are scheduled')[0]).toMatchObject({ fired: 2, status: 'cooling-down' });

    clock += DAY;
    expect(store.matchAndFire('deployed it')[0]).toMatchObject({ fired: 3, status: 'exhausted' });
    clock += 10 * DAY;
    expect(store.matchAndFire('deploy')).toEqual([]);
    expect(store.list(false)).toEqual([]);
    expect(store.list(true).map((i) => [i.status, i.fired])).toEqual([['exhausted', 3]]);
  });

  it('fires every time with no cooldown, and not for messages without its keywords', () => {
    store.create({ ...defaults, cooldownHours: 0, fireBudget: 5 }, null);
    expect(store.matchAndFire('What should I cook tonight?')).toEqual([]);
    expect(store.matchAndFire('deploy')[0]).toMatchObject({ fired: 1, status: 'armed' });
    expect(store.matchAndFire('deploy')[0]).toMatchObject({ fired: 2, status: 'armed' });
  });

  it('expires after its days (90 by default in the contract)', () => {
    const intent = store.create(defaults, null);
    clock = START + 90 * DAY - 1;
    expect(store.list(false).map((i) => i.status)).toEqual(['armed']);
    clock = START + 90 * DAY;
    expect(store.list(false)).toEqual([]);
    expect(store.list(true)).toEqual([{ ...intent, status: 'expired' }]);
    expect(store.matchAndFire('deploy now')).toEqual([]);
  });

  it('cancels idempotently and names an unknown id', () => {
    const intent = store.create(defaults, null);
    const cancelled = store.cancel(intent.id);
    expect(cancelled.status).toBe('cancelled');
    clock += HOUR;
    expect(store.cancel(intent.id)).toEqual(cancelled);
    expect(store.matchAndFire('deploy')).toEqual([]);
    expect(store.list(false)).toEqual([]);
    expect(store.list(true)).toEqual([cancelled]);
    try {
      store.cancel('intent:nope');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ReverieError);
      expect((error as ReverieError).code).toBe('not-found');
      expect((error as ReverieError).message).toContain('intent:nope');
    }
  });

  it('fires a project-scoped intent only for that project; an unscoped one for any', () => {
    const scoped = store.create({ ...defaults, project: 'github.com/dana/ledgerd' }, null);
    const unscoped = store.create({ ...defaults, description: 'Any deploy' }, null);
    expect(store.matchAndFire('deploy').map((i) => i.id)).toEqual([unscoped.id]);
    clock += 2 * DAY;
    expect(store.matchAndFire('deploy', 'github.com/dana/other').map((i) => i.id)).toEqual([unscoped.id]);
    clock += 2 * DAY;
    expect(store.matchAndFire('deploy', 'GitHub.com/dana/ledgerd').map((i) => i.id).sort()).toEqual([scoped.id, unscoped.id].sort());
  });

  it('matches keywords and phrases by stem, fires the best matches first, at most the limit', () => {
    const phrase = store.create({ ...defaults, keywords: ['database migration'] }, null);
    const both = store.create({ ...defaults, keywords: ['database migration', 'staging'] }, null);
    const single = [0, 1, 2].map(() => store.create({ ...defaults, keywords: ['migrations'] }, null));
    expect(store.matchAndFire('We are migrating databases', undefined, 10)).toHaveLength(5);

    clock += 2 * DAY;
    const fired = store.matchAndFire('Running the staging database migrations today');
    expect(fired).toHaveLength(3);
    expect(fired[0]!.id).toBe(both.id);
    // Ties (one keyword of one) go to the older intent.
    expect(fired[1]!.id).toBe(phrase.id);
    expect(fired[2]!.id).toBe(single[0]!.id);
    expect(store.list(false).filter((i) => i.status === 'armed')).toHaveLength(2);
    clock += 2 * DAY;
    expect(store.matchAndFire('database only')).toEqual([]);
    expect(store.matchAndFire('migration of the database', undefined, 0)).toEqual([]);
  });

  it('lists armed intents before cooling-down ones and keeps them across reopen', () => {
    const a = store.create({ ...defaults, keywords: ['alpha'] }, null);
    const b = store.create({ ...defaults, keywords: ['beta'] }, null);
    store.matchAndFire('alpha');
    expect(store.list(false).map((i) => [i.id, i.status])).toEqual([
      [b.id, 'armed'],
      [a.id, 'cooling-down'],
    ]);
    db.close();
    db = openAgentDatabase(path.join(dir, 'agents', 'ws.sqlite')).db;
    expect(new IntentStore(db, () => clock).list(false).map((i) => i.id)).toEqual([b.id, a.id]);
  });
});
