import { describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { indexedWorkspaces } from './helpers/indexedWorkspace.js';

const engine = indexedWorkspaces();

type Named = [label: string, type: string, mentions: number, aliases: string | null];

/** Every entity named "Dana" or "Dana …", with its mentions and aliases. */
function danas(d: Database.Database): Named[] {
  return d
    .prepare(
      `SELECT e.label, e.type, e.mentions, (SELECT group_concat(a.alias, ',') FROM (SELECT alias FROM graph_aliases WHERE entity_id = e.id ORDER BY key) a)
       FROM graph_entities e WHERE e.key = 'dana' OR e.key LIKE 'dana %' ORDER BY e.label`,
    )
    .raw()
    .all() as Named[];
}

const NOTES = {
  'memory/2026-09-01.md': '# 2026-09-01\n\n- Dana Okafor joined the payments team.\n',
  'memory/2026-09-02.md': '# 2026-09-02\n\n- Lunch with Dana at the canteen.\n',
  'memory/2026-09-03.md': '# 2026-09-03\n\n- Dana Silva joined the search team.\n',
};

describe('a first name and the full names sharing it', () => {
  it('joins "Dana" to Dana Okafor, and splits it off again when Dana Silva arrives later, as a fresh build has it', async () => {
    const fresh = await engine.indexed(NOTES);
    const built = danas(fresh);
    // Two people called Dana: the first name alone is neither.
    expect(built.map(([label, , mentions, aliases]) => [label, mentions, aliases])).toEqual([
      ['Dana', 1, null],
      ['Dana Okafor', 1, null],
      ['Dana Silva', 1, null],
    ]);
    await engine.service().close();

    // One note at a time: joined while Dana Okafor is the only Dana (whichever came first), then split when Dana Silva appears.
    for (const [first, second] of [
      ['memory/2026-09-01.md', 'memory/2026-09-02.md'],
      ['memory/2026-09-02.md', 'memory/2026-09-01.md'],
    ] as const) {
      const d = await engine.indexed({ [first]: NOTES[first] });
      engine.workspace().write(second, NOTES[second]);
      await engine.service().invoke('index.sync', {});
      expect(danas(d).map(([label, , mentions, aliases]) => [label, mentions, aliases])).toEqual([['Dana Okafor', 2, 'Dana']]);
      engine.workspace().write('memory/2026-09-03.md', NOTES['memory/2026-09-03.md']);
      await engine.service().invoke('index.sync', {});
      expect(danas(d)).toEqual(built);

      // A later "Dana" alone stays with the short name, not with Dana Okafor through an old alias.
      engine.workspace().write('memory/2026-09-04.md', '# 2026-09-04\n\n- Dana booked the room for Friday.\n');
      await engine.service().invoke('index.sync', {});
      expect(danas(d).map(([label, , mentions]) => [label, mentions])).toEqual([
        ['Dana', 2],
        ['Dana Okafor', 1],
        ['Dana Silva', 1],
      ]);
      await engine.service().close();
    }
  });
});
