import { describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { typeFromVotes } from '../src/graph/typeVotes.js';
import { indexedWorkspaces } from './helpers/indexedWorkspace.js';

function typesOf(d: Database.Database, key: string): string[] {
  return d.prepare('SELECT type FROM graph_entities WHERE key = ? ORDER BY type').pluck().all(key) as string[];
}

function extractedAt(d: Database.Database): Map<string, number> {
  return new Map((d.prepare('SELECT path, extracted_at FROM graph_files').all() as Array<{ path: string; extracted_at: number }>).map((r) => [r.path, r.extracted_at]));
}

const PLACE_ONCE = '# 2026-11-01\n\n- A weekend in Vault with the kids.\n';
const TOOL_TWICE = '# 2026-11-02\n\n- Upgraded Vault to the new build.\n- Installed Vault on the spare box too.\n';
const TOOL_ONCE = '# 2026-11-03\n\n- Configured Vault for the team.\n';

describe("a name's type from every file that names it", () => {
  const engine = indexedWorkspaces();

  it('is not fixed by the first file: the votes of all files decide', async () => {
    const d = await engine.indexed({ 'memory/2026-11-01.md': PLACE_ONCE, 'memory/2026-11-02.md': TOOL_TWICE, 'memory/2026-11-03.md': TOOL_ONCE });
    expect(typesOf(d, 'vault')).toEqual(['tool']);
  });

  it('re-decides from the stored votes when one file is edited, re-extracting only that file', async () => {
    const d = await engine.indexed({ 'memory/2026-11-01.md': PLACE_ONCE, 'memory/2026-11-02.md': TOOL_TWICE, 'memory/2026-11-03.md': TOOL_ONCE });
    const ws = engine.workspace();
    const s = engine.service();
    const before = extractedAt(d);
    await new Promise((r) => setTimeout(r, 5));
    ws.write('memory/2026-11-02.md', '# 2026-11-02\n\n- Quiet day.\n');
    ws.remove('memory/2026-11-03.md');
    await s.invoke('index.sync', {});
    // The place vote of the untouched first file is all that is left.
    expect(typesOf(d, 'vault')).toEqual(['place']);
    expect(extractedAt(d).get('memory/2026-11-01.md')).toBe(before.get('memory/2026-11-01.md'));
    expect(extractedAt(d).get('memory/2026-11-02.md')).toBeGreaterThan(before.get('memory/2026-11-02.md')!);

    ws.write('memory/2026-11-02.md', TOOL_TWICE);
    await s.invoke('index.sync', {});
    expect(typesOf(d, 'vault')).toEqual(['tool']);
    expect(extractedAt(d).get('memory/2026-11-01.md')).toBe(before.get('memory/2026-11-01.md'));

    // The same notes extracted from scratch give the same types.
    const incremental = d.prepare('SELECT type, key FROM graph_entities ORDER BY key, type').all();
    await s.invoke('index.sync', { force: true });
    expect(d.prepare('SELECT type, key FROM graph_entities ORDER BY key, type').all()).toEqual(incremental);
  });

  it('keeps the votes of a short name merged into the full name, and forgets a removed file’s votes', async () => {
    const d = await engine.indexed({
      'memory/2026-11-01.md': '# 2026-11-01\n\n- Kiri said the tickets are booked.\n',
      'memory/2026-11-02.md': '# 2026-11-02\n\n- Kiri Tane said she flew back.\n',
    });
    expect(typesOf(d, 'kiri tane')).toEqual(['person']);
    expect(typesOf(d, 'kiri')).toEqual([]);
    const votesOf = () => d.prepare("SELECT count(m.type_vote) FROM graph_mentions m JOIN graph_entities e ON e.id = m.entity_id WHERE e.key = 'kiri tane'").pluck().get();
    expect(votesOf()).toBe(2);
    engine.workspace().remove('memory/2026-11-01.md');
    await engine.service().invoke('index.sync', {});
    expect(votesOf()).toBe(1);
  });
});

describe('summing type votes', () => {
  it('lets the words around a name outweigh the first-name list, which decides only alone', () => {
    const place = { type: 'place', kind: 'words', count: 2 } as const;
    expect(typeFromVotes([place, { type: 'person', kind: 'names', count: 5 }])).toBe('place');
    expect(typeFromVotes([{ type: 'person', kind: 'names', count: 2 }])).toBe('person');
    expect(typeFromVotes([place, { type: 'person', kind: 'words', count: 2 }])).toBe('person');
    expect(typeFromVotes([{ type: 'tool', kind: 'words', count: 3 }, { type: 'place', kind: 'words', count: 1 }])).toBe('tool');
    // What a person says outweighs the places the words put the name in.
    expect(typeFromVotes([{ type: 'place', kind: 'words', count: 4 }, { type: 'person', kind: 'words', count: 1 }])).toBe('person');
  });

  it('takes weak hints only when nothing stronger speaks and they agree', () => {
    expect(typeFromVotes([{ type: 'place', kind: 'hint', count: 3 }])).toBe('place');
    expect(typeFromVotes([{ type: 'place', kind: 'hint', count: 3 }, { type: 'person', kind: 'hint', count: 1 }])).toBeNull();
    expect(typeFromVotes([{ type: 'place', kind: 'hint', count: 3 }, { type: 'tool', kind: 'names', count: 1 }])).toBe('tool');
    expect(typeFromVotes([])).toBeNull();
  });
});
