import { describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { extractFile } from '../src/graph/extractFile.js';
import { indexedWorkspaces } from './helpers/indexedWorkspace.js';

/** The type of `label` in every entry of a one-file extraction that names it. */
function typesIn(text: string, label: string): string[] {
  return extractFile('memory/2026-11-01.md', text, '2026-11-01').flatMap((e) => e.entities.filter((m) => m.label === label && m.certainty !== 'tentative').map((m) => m.type));
}

describe('one name, one type across a file', () => {
  it('gives an untyped name the type its weak cues agree on', () => {
    expect(typesIn('# Sat\n\n- Climbing with Ottilie.\n- Then tea with Ottilie again.\n', 'Ottilie')).toEqual(['person', 'person']);
    expect(typesIn('# Sat\n\n- Lunch somewhere in Alcântara.\n- Walked back from the river, Alcântara is lovely.\n- Then back to Alcântara.\n', 'Alcântara')).toEqual(['place', 'place', 'place']);

  });

  it('leaves a name untyped when its weak cues disagree', () => {
    expect(typesIn('# Sat\n\n- Climbing with Ottilie.\n- Read about it in Ottilie.\n', 'Ottilie')).toEqual(['concept', 'concept']);
  });

  it('lets the most strong cues win, a person winning a tie', () => {
    expect(typesIn('# Sat\n\n- Weekend in Kiri.\n- Kiri said the tickets are booked.\n', 'Kiri')).toEqual(['person', 'person']);
    expect(typesIn('# Sat\n\n- Flew to Kiri.\n- Hotel in Kiri was fine.\n- Kiri said hi.\n', 'Kiri')).toEqual(['place', 'place', 'place']);
  });

  it('counts a first name in the name list for less than the words around it', () => {
    expect(typesIn('# Sat\n\n- Juma flew to Charlotte.\n- Juma called from Charlotte today.\n', 'Charlotte')).toEqual(['place', 'place']);
    expect(typesIn('# Sat\n\n- Charlotte said hi.\n- Call Charlotte back.\n', 'Charlotte')).toEqual(['person', 'person']);
  });

  it('types the untyped mentions of a name the file types elsewhere', () => {
    // Sentence openers count once the file names the name elsewhere.
    expect(typesIn('# Sat\n\n- Tilde is great.\n- Upgraded Tilde to the new build.\n- Tilde crashed twice.\n', 'Tilde')).toEqual(['tool', 'tool', 'tool']);
    expect(typesIn('# Sat\n\n- Note about Tilde first.\n- Upgraded Tilde to the new build.\n', 'Tilde')).toEqual(['tool', 'tool']);
  });
});

describe('a person is not kept a place across files', () => {
  const engine = indexedWorkspaces();

  function typeOf(d: Database.Database, label: string): string | undefined {
    return d.prepare('SELECT type FROM graph_entities WHERE label = ?').pluck().get(label) as string | undefined;
  }

  it('retypes a place the later notes show is a person, never the other way round', async () => {
    const d = await engine.indexed({
      'memory/2026-11-01.md': '# 2026-11-01\n\n- A weekend in Ottilie, apparently.\n',
      'memory/2026-11-02.md': '# 2026-11-02\n\n- Ottilie said the tickets are booked.\n',
      'memory/2026-11-03.md': '# 2026-11-03\n\n- Jonas said he flew to Porto.\n',
      'memory/2026-11-04.md': '# 2026-11-04\n\n- Two nights in Porto.\n',
      'memory/2026-11-05.md': '# 2026-11-05\n\n- A hotel in Ottilie after all.\n',
    });
    expect(typeOf(d, 'Ottilie')).toBe('person');
    expect(typeOf(d, 'Porto')).toBe('place');
    expect(d.prepare("SELECT count(*) FROM graph_entities WHERE key = 'ottilie'").pluck().get()).toBe(1);
  });
});
