import { describe, expect, it } from 'vitest';
import { extractFile } from '../src/graph/extractFile.js';

/** The typed relations one note yields, as "subject predicate object" lines (the writer is Ines Duarte). */
function relationsOf(text: string, notePath = 'memory/2026-10-01.md', writerName: string | null = 'Ines Duarte'): string[] {
  return extractFile(notePath, text, '2026-10-01', { writerName }).flatMap((e) =>
    e.claims.filter((c) => c.object !== null).map((c) => `${e.entities[c.subject]!.label} ${c.predicate} ${e.entities[c.object!]!.label}`),
  );
}

describe('pair work', () => {
  it('makes the writer and the partner work on what they paired on', () => {
    expect(relationsOf('- Paired with Tariq on the Osprey importer today.')).toEqual(['Ines Duarte works_on Osprey', 'Tariq works_on Osprey']);
    expect(relationsOf('- Paired with [[tariq]] on invoice dedupe v3 all morning.')).toEqual(['Ines Duarte works_on invoice dedupe v3', 'tariq works_on invoice dedupe v3']);
    expect(relationsOf('- I paired with Tariq on quillpipe.', 'memory/people/tariq.md')).toEqual(['Ines Duarte works_on quillpipe', 'Tariq works_on quillpipe']);
  });

  it('reads "my pairing partner on X" in a person’s note as both of them working on it', () => {
    expect(relationsOf('# Tariq Haddad\n\n- My usual pairing partner on [[quillpipe]]. Mornings only.', 'memory/people/tariq.md')).toEqual([
      'Tariq Haddad works_on quillpipe',
      'Ines Duarte works_on quillpipe',
    ]);
  });

  it('reads nothing for a day, a pronoun, or a described chore', () => {
    expect(relationsOf('- Paired with Tariq on Thursday. Good session.')).toEqual([]);
    expect(relationsOf('- Paired with Tariq on it again.')).toEqual([]);
    expect(relationsOf('- Paired with Tariq on the flaky test.')).toEqual([]);
    // A person's note without an "I": not the writer's own voice, so no one to pair.
    expect(relationsOf('# Tariq Haddad\n\n- Paired with Marta on quillpipe.', 'memory/people/tariq.md')).toEqual([]);
  });
});

describe('a move’s earlier place', () => {
  it('places the mover where the move started until the move', () => {
    expect(relationsOf('- Moved Heron from box-a to box-b last night.')).toEqual(['Heron runs_on box-a', 'Heron moved_to box-b']);
    expect(relationsOf('# Tariq Haddad\n\n- Moved to Porto from Cairo in 2021.', 'memory/people/tariq.md')).toEqual(['Tariq Haddad located_in Cairo', 'Tariq Haddad moved_to Porto']);
  });

  it('reads no earlier place that is no place or host', () => {
    expect(relationsOf('- Heron moved to box-b from the old setup.')).toEqual(['Heron moved_to box-b']);
    expect(relationsOf('- Tariq moved to Porto from scratch.')).toEqual(['Tariq moved_to Porto']);
  });
});

describe('ownership by a possessive', () => {
  it('reads "X is (now) Person’s" as the person owning X', () => {
    expect(relationsOf('- Quillpipe is now Tariq’s. Handover went fine.')).toEqual(['Tariq owns Quillpipe']);
    expect(relationsOf('- Heron on-call is Tariq’s as of Monday.')).toEqual(['Tariq owns Heron']);
  });

  it('reads nothing when the possessive goes on to a noun', () => {
    expect(relationsOf('- Quillpipe is Tariq’s problem now.')).toEqual([]);
    expect(relationsOf('- Porto is Tariq’s.')).toEqual([]);
  });
});

describe('places by groups and appositions', () => {
  it('places each listed person in a group’s place, and each named part of it inside it', () => {
    expect(relationsOf('- Family mostly in Porto: dad in Foz, sister Marta (for now), uncle Rui in Ribeira', 'USER.md')).toEqual([
      'Rui located_in Ribeira',
      'Foz located_in Porto',
      'Marta located_in Porto',
      'Ribeira located_in Porto',
    ]);
  });

  it('reads no group without a colon list, nor a place after a verb', () => {
    expect(relationsOf('- Family mostly in Porto, visiting in May.', 'USER.md')).toEqual([]);
    expect(relationsOf('- Visited family in Porto: saw Marta.', 'USER.md')).toEqual([]);
  });

  it('places an organisation by its described kind and a place described as part of another', () => {
    expect(relationsOf('- Data engineer at Osprey, the logistics startup in Braga.', 'USER.md')).toEqual(['Ines Duarte member_of Osprey', 'Osprey located_in Braga']);
    expect(relationsOf('- Dinner in Foz — a neighbourhood of Porto — on Friday.')).toContain('Foz located_in Porto');
  });

  it('reads nothing when a verb, not a kind, stands before "in"', () => {
    expect(relationsOf('- Data engineer at Osprey, the team we met in Braga.', 'USER.md')).toEqual(['Ines Duarte member_of Osprey']);
    expect(relationsOf('- Dinner with Foz people — we ate in Porto.')).not.toContain('Foz located_in Porto');
  });
});

describe('the machines the writer keeps', () => {
  it('makes the writer own each machine a line lists after saying they keep them', () => {
    expect(relationsOf('- run three servers in the attic: `heron` (old NAS), `kestrel-2` (VM host), wren', 'USER.md')).toEqual([
      'Ines Duarte owns heron',
      'Ines Duarte owns kestrel-2',
      'Ines Duarte owns wren',
    ]);
    expect(relationsOf('I have two boxes: heron and `wren`.', 'memory/people/tariq.md')).toEqual(['Ines Duarte owns heron', 'Ines Duarte owns wren']);
  });

  it('reads nothing for someone else’s machines or a list without the verb', () => {
    expect(relationsOf('- Tariq runs two servers: heron, wren', 'USER.md')).toEqual([]);
    expect(relationsOf('- Reading about servers: heron, wren', 'USER.md')).toEqual([]);
  });
});

describe('a table of a change, thing by thing', () => {
  const table = (rows: string) => `# Move to Hetzner\n\n| thing | before | after |\n|---|---|---|\n${rows}`;

  it('reads where each thing runs after the change, or before when the after cell says nothing changed', () => {
    expect(relationsOf(table('| Osprey | AWS, 2× EC2 | Hetzner, `osprey-1` (since May) |\n| Quillpipe | Hetzner | unchanged for now |\n'), 'memory/projects/move.md')).toEqual([
      'Osprey runs_on Hetzner',
      'Quillpipe runs_on Hetzner',
    ]);
  });

  it('reads nothing from a table of other columns, or a cell that opens with no provider or host', () => {
    expect(relationsOf('| thing | owner | notes |\n|---|---|---|\n| Osprey | Hetzner | fine |\n', 'memory/projects/move.md')).toEqual([]);
    expect(relationsOf(table('| Osprey | AWS | a bigger box, maybe |\n'), 'memory/projects/move.md')).toEqual([]);
  });
});

describe('coordinated objects of the writer’s verbs', () => {
  it('gives every coordinated name the writer’s relation, a code token with its kind word too', () => {
    expect(relationsOf('- I work on quillpipe and heronctl.')).toEqual(['Ines Duarte works_on quillpipe', 'Ines Duarte works_on heronctl']);
    expect(relationsOf('- Main repo is quillpipe; occasional work on heronctl and the internal `wrn` CLI.', 'MEMORY.md')).toEqual([
      'Ines Duarte works_on heronctl',
      'Ines Duarte works_on wrn',
    ]);
  });

  it('ends the list at an item that is a person or more than a name', () => {
    expect(relationsOf('- I work on quillpipe and Tariq reviews.')).toEqual(['Ines Duarte works_on quillpipe']);
    expect(relationsOf('- I work on quillpipe and then go climbing.')).toEqual(['Ines Duarte works_on quillpipe']);
  });
});

describe('coordinated subjects and appositions', () => {
  it('gives each of several people opening a clause the relation of their plural verb', () => {
    expect(relationsOf('- Tariq and Marta work on Osprey.')).toEqual(['Tariq works_on Osprey', 'Marta works_on Osprey']);
    expect(relationsOf('- Tariq, Marta and Rui own quillpipe.')).toEqual(['Tariq owns quillpipe', 'Marta owns quillpipe', 'Rui owns quillpipe']);
    expect(relationsOf('- Tariq and Marta live in Braga now.')).toEqual(['Tariq located_in Braga', 'Marta located_in Braga']);
  });

  it('reads no coordinated subject after a verb, with a thing among the people, or before a lowercase "place"', () => {
    expect(relationsOf('- Met Tariq and Marta work on Osprey now.')).toEqual([]);
    expect(relationsOf('- Tariq and Marta live in hope.')).toEqual([]);
  });

  it('reads past an apposition in lowercase words to the verb', () => {
    expect(relationsOf('- Osprey, our invoicing service, runs on box-b.')).toEqual(['Osprey runs_on box-b']);
    expect(relationsOf('- Osprey, the invoicing service, is owned by Marta.')).toEqual(['Marta owns Osprey']);
    // A clause that is more than an apposition (a verb, a name) is no bridge.
    expect(relationsOf('- Osprey, which Tariq wrote, Marta said, runs on box-b.')).toEqual([]);
  });
});
