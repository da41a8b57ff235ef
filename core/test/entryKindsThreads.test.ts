import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { classifyFileEntries } from '../src/index/entryKinds.js';
import { deriveEntryKinds } from '../src/index/entryKindsStep.js';
import { EntryKindsTable } from '../src/index/entryKindsTable.js';
import { type IndexStore } from '../src/index/indexStore.js';
import { syncIndex } from '../src/index/sync.js';
import { recordWrittenLines } from '../src/provenance/recordWrites.js';
import { storesClosedAfterEachTest } from './helpers/indexStores.js';
import { createTempWorkspace, type TempWorkspace } from './helpers/workspace.js';

// A large derived pass reads and classifies entries on kinds threads while the engine thread
// writes: the stored kinds must be the ones this thread alone stores, row for row.

let ws: TempWorkspace;
const stores = storesClosedAfterEachTest(() => ws.dataDir);

/** Lines of every kind, dated and undated, so most rules and the scorer have something to say. */
const LINES = [
  'The staging box is ares.internal, port 8443, behind the corp VPN.',
  '[ ] renew the TLS certificate on ares.internal (expires Oct 30!)',
  'Why does the nightly reconciliation job spike? Need to check.',
  'Priya is on holiday Nov 2–6; Marco approves releases.',
  'Prefer Vitest over Jest for new test suites.',
  'Decided to move atlas from Docker Compose to systemd units.',
  'To rotate the key: first revoke the old one, then issue a new one.',
  'Lunch with Marek about the tax module.',
  'Temporary: deploys go through Arjun while CI is broken.',
  'Ask about it later <!-- kind: fact -->',
  'maybe the timeout is the proxy, to confirm',
  'Kestrel は請求サービスです。',
];

/** Daily notes of bulleted entries (more than one request's worth per thread), one with a byte-order mark. */
function notes(count: number): Record<string, string> {
  const files: Record<string, string> = { 'MEMORY.md': `# Memory\n\n${LINES.map((l) => `- ${l}`).join('\n')}\n` };
  for (let i = 0; i < count; i++) {
    const day = `2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
    const entries = Array.from({ length: 3 + (i % 9) }, (_, k) => `- ${LINES[(i + k * 5) % LINES.length]} (${i}.${k})`);
    files[`memory/${day}-${String(i).padStart(4, '0')}.md`] = `${i === 7 ? '\ufeff' : ''}# ${day}\n\n${entries.join('\n')}\n`;
  }
  return files;
}

const NOTES = 150;
const AGENT_NOTE = 'memory/2026-01-01-0000.md';

beforeEach(() => {
  ws = createTempWorkspace(notes(NOTES));
});
afterEach(() => {
  ws.cleanup();
});

const openStore = stores.open;

/** An indexed store whose kinds are still to derive; an agent's annotated line in one note, which cannot choose its own kind. */
async function indexedStore(name: string): Promise<IndexStore> {
  const store = openStore(name);
  recordWrittenLines(store.db, AGENT_NOTE, ['- Ask about it later <!-- kind: fact --> (agent)'], { origin: 'agent', via: 'agent', actor: 'test' });
  await syncIndex(store, { workspaceRoot: ws.root, extraPaths: [] }, { maxFileBytes: 1024 * 1024, readerThreads: 0 });
  return store;
}

/** Every stored kind, decoded, by file. */
function storedKinds(store: IndexStore): Record<string, unknown> {
  const table = new EntryKindsTable(store.db);
  const paths = store.db.prepare('SELECT path FROM entry_kinds ORDER BY path').pluck().all() as string[];
  return Object.fromEntries(paths.map((p) => [p, table.of(p)]));
}

const never = () => false;

describe('entry kinds threads', () => {
  it('store the kinds this thread stores alone, for every file', async () => {
    fs.appendFileSync(path.join(ws.root, AGENT_NOTE), '- Ask about it later <!-- kind: fact --> (agent)\n');
    const alone = await indexedStore('alone');
    const alonePass = await deriveEntryKinds(alone, never, { threads: 0 });
    const threaded = await indexedStore('threaded');
    const threadedPass = await deriveEntryKinds(threaded, never, { threads: 2 });

    expect(alonePass).toMatchObject({ derived: NOTES + 1, deferred: 0 });
    expect(threadedPass).toMatchObject({ derived: NOTES + 1, deferred: 0 });
    const kinds = storedKinds(threaded);
    expect(Object.keys(kinds)).toHaveLength(NOTES + 1);
    expect(kinds).toEqual(storedKinds(alone));
    // The agent's line kept the kind its wording gives, not the one it annotated itself with.
    const agentEntry = (kinds[AGENT_NOTE] as Array<{ startLine: number; kind: string; cue: string }>).at(-1)!;
    expect(agentEntry.cue).not.toBe('a kind annotation');
    expect(kinds['memory/2026-08-08-0007.md']).toEqual(classifyFileEntries('memory/2026-08-08-0007.md', fs.readFileSync(path.join(ws.root, 'memory/2026-08-08-0007.md'), 'utf8').slice(1)));
  });

  it('an edited file gets the kinds of its new text; a file changed since it was indexed waits for the sync that reads it', async () => {
    const store = await indexedStore('edits');
    await deriveEntryKinds(store, never, { threads: 2 });
    const edited = 'memory/2026-03-03-0002.md';
    const before = new EntryKindsTable(store.db).of(edited);
    const text = '# 2026-03-03\n\n- TODO: write the Acme go-live checklist\n- Lunch with Marek about the tax module.\n';
    ws.write(edited, text);
    await syncIndex(store, { workspaceRoot: ws.root, extraPaths: [] }, { maxFileBytes: 1024 * 1024, readerThreads: 0 });
    expect(new EntryKindsTable(store.db).derivedFor(edited)).toBeNull();

    // Changed again after the sync: the pass must not store kinds of text the index does not hold.
    ws.write(edited, `${text}- Why is the build slow?\n`);
    const stale = await deriveEntryKinds(store, never, { threads: 2 });
    expect(stale).toMatchObject({ derived: 0, deferred: 1 });
    expect(new EntryKindsTable(store.db).derivedFor(edited)).toBeNull();

    ws.write(edited, text);
    const pass = await deriveEntryKinds(store, never, { threads: 2 });
    expect(pass).toMatchObject({ derived: 1, deferred: 0 });
    const after = new EntryKindsTable(store.db).of(edited);
    expect(after).not.toEqual(before);
    expect(after).toEqual(classifyFileEntries(edited, text));
    expect(after.map((k) => k.kind)).toEqual(['task', 'event']);
  });

  it('a pass told to stop writes no more and leaves the rest for the next pass', async () => {
    const store = await indexedStore('stopped');
    let asked = 0;
    const first = await deriveEntryKinds(store, () => ++asked > 3, { threads: 2 });
    expect(first.derived).toBeLessThan(NOTES + 1);
    expect(store.kindsBacklog()).toEqual({ done: first.derived, total: NOTES + 1 });
    const rest = await deriveEntryKinds(store, never, { threads: 2 });
    expect(first.derived + rest.derived).toBe(NOTES + 1);
  });
});
