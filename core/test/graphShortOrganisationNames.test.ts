import { describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { indexedWorkspaces } from './helpers/indexedWorkspace.js';

const engine = indexedWorkspaces();

function named(d: Database.Database, word: string): Array<{ label: string; type: string; mentions: number; aliases: string | null }> {
  return d
    .prepare(
      `SELECT e.label, e.type, e.mentions, (SELECT group_concat(a.alias, ',') FROM graph_aliases a WHERE a.entity_id = e.id) AS aliases
       FROM graph_entities e WHERE e.key = ? OR e.key LIKE ? ORDER BY e.label`,
    )
    .all(word.toLowerCase(), `${word.toLowerCase()} %`) as Array<{ label: string; type: string; mentions: number; aliases: string | null }>;
}

const FIRST = {
  'memory/2026-09-01.md': '# 2026-09-01\n\n- Jade Liang works at Tidewater Systems on settlement.\n',
  'memory/2026-09-02.md': '# 2026-09-02\n\n- The Kafka clusters at Tidewater run per region.\n',
};

describe('a short organisation name and its one long name', () => {
  it('joins "Tidewater" to the only "Tidewater …" organisation, keeping it as an alias', async () => {
    const d = await engine.indexed(FIRST);
    expect(named(d, 'Tidewater')).toEqual([{ label: 'Tidewater Systems', type: 'organization', mentions: 2, aliases: 'Tidewater' }]);
  });

  it('keeps the short name apart when two names start with it, in one build or as the second arrives later', async () => {
    const both = { ...FIRST, 'memory/2026-09-03.md': '# 2026-09-03\n\n- Met the Tidewater Analytics team at the conference.\n' };
    const built = await engine.indexed(both);
    const apart = named(built, 'Tidewater').map((e) => [e.label, e.mentions, e.aliases]);
    expect(apart).toEqual([
      ['Tidewater', 1, null],
      ['Tidewater Analytics', 1, null],
      ['Tidewater Systems', 1, null],
    ]);
    await engine.service().close();

    // Incrementally: joined first, then split again when "Tidewater Analytics" appears, as a rebuild has it.
    const d = await engine.indexed(FIRST);
    expect(named(d, 'Tidewater').map((e) => e.label)).toEqual(['Tidewater Systems']);
    engine.workspace().write('memory/2026-09-03.md', both['memory/2026-09-03.md']);
    await engine.service().invoke('index.sync', {});
    expect(named(d, 'Tidewater').map((e) => [e.label, e.mentions, e.aliases])).toEqual(apart);
    // A further mention of the short name stays with the short name.
    engine.workspace().write('memory/2026-09-04.md', '# 2026-09-04\n\n- The ledger team at Tidewater moved to GCP.\n');
    await engine.service().invoke('index.sync', {});
    expect(named(d, 'Tidewater').map((e) => [e.label, e.mentions])).toEqual([
      ['Tidewater', 2],
      ['Tidewater Analytics', 1],
      ['Tidewater Systems', 1],
    ]);
  });

  it('joins a short name met after its long name, and never a phrase, a known name or another kind of name', async () => {
    const d = await engine.indexed({
      'memory/2026-09-01.md': '# 2026-09-01\n\n- Signed our new customer Kobo Rails today.\n- Priyanka owns the settlement reports.\n- Google Cloud bills went up; Google support was slow.\n- Hope Wanjiku leads the Saturday sessions.\n',
      'memory/2026-09-02.md': '# 2026-09-02\n\n- Our contact at Kobo sent the sandbox keys.\n- The nightly Settlement run was late again.\n- Hope said the room is booked.\n',
    });
    expect(named(d, 'Kobo').map((e) => [e.label, e.aliases])).toEqual([['Kobo Rails', 'Kobo']]);
    expect(named(d, 'Google').map((e) => e.label)).toContain('Google');
    expect(named(d, 'Hope').every((e) => e.type === 'person' || e.label === 'Hope')).toBe(true);
    expect(named(d, 'Settlement').some((e) => e.aliases?.includes('Settlement'))).toBe(false);
  });
});
