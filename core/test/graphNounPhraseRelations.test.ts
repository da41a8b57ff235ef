import { describe, expect, it } from 'vitest';
import { extractFile } from '../src/graph/extractFile.js';

/** The typed relations one note yields, as "subject predicate object" lines. */
function relationsOf(text: string, notePath = 'memory/2026-10-01.md', writerName: string | null = null): string[] {
  return extractFile(notePath, text, '2026-10-01', { writerName }).flatMap((e) =>
    e.claims.filter((c) => c.object !== null).map((c) => `${e.entities[c.subject]!.label} ${c.predicate} ${e.entities[c.object!]!.label}`),
  );
}

function peopleOf(text: string): string[] {
  return extractFile('memory/2026-10-01.md', text, '2026-10-01').flatMap((e) => e.entities.filter((m) => m.type === 'person').map((m) => m.label));
}

describe('relations read from noun phrases', () => {
  it('reads software named on a host at a clause’s opening as running there, and not an act done on a host', () => {
    expect(relationsOf('- Postgres 16 on ledger-db-2 went fine last night.')).toEqual(['Postgres runs_on ledger-db-2']);
    expect(relationsOf('- Upgrade done. Postgres on db-02.internal is quiet now.')).toEqual(['Postgres runs_on db-02.internal']);
    // Not at a clause's opening: something done on the host, not what runs there.
    expect(relationsOf('- Ran pg_upgrade on db-02 before lunch.')).toEqual([]);
    // A person on a host is no service.
    expect(relationsOf('- Dana on db-02 all morning.')).toEqual([]);
  });

  it('places the people someone lives with where they live, and no one they merely met there', () => {
    expect(relationsOf('- Live in Kilimani, Nairobi, with Karim and the two animals.', 'USER.md', 'Zawadi Njoroge')).toEqual([
      'Zawadi Njoroge located_in Kilimani',
      'Zawadi Njoroge located_in Nairobi',
      'Kilimani located_in Nairobi',
      'Karim located_in Kilimani',
      'Karim located_in Nairobi',
    ]);
    expect(relationsOf('- Dana lives in Porto with her partner Rui Costa.')).toEqual(['Dana located_in Porto', 'Rui Costa located_in Porto']);
    expect(relationsOf('- Met Lena in Lisbon with Sam.')).toEqual([]);
  });

  it('keeps a title with the name it belongs to ("Dr. Wekesa"), never a "Dr" of its own', () => {
    expect(peopleOf('- 16:00 Dr. Hartmann. Then Dr Wekesa’s clinic; Prof. Ada Obi said hi.')).toEqual(['Dr. Hartmann', 'Dr Wekesa', 'Prof. Ada Obi']);
    expect(extractFile('memory/2026-10-01.md', '- Dr. Hartmann called.', null).flatMap((e) => e.entities.map((m) => m.label))).not.toContain('Dr');
  });

  it('reads where a described person works or is: "vet: Dr. Wekesa at Lavington Vet Clinic", "Dr. Hartmann: dentist on Kastanienallee"', () => {
    expect(relationsOf("- Ruby's vet: Dr. Wekesa at Lavington Vet Clinic", 'MEMORY.md')).toEqual(['Dr. Wekesa member_of Lavington Vet Clinic']);
    expect(relationsOf('- Dr. Hartmann: dentist on Kastanienallee. Filling done.', 'MEMORY.md')).toEqual(['Dr. Hartmann located_in Kastanienallee']);
    // A meeting at a company says nothing of who works there; an organisation's place is its own, not its member's.
    expect(relationsOf('- Met Dana Okafor at Acme Corp today.')).toEqual([]);
    expect(relationsOf('- Adaeze Obi — SRE lead, Kobo Rails, Lagos', 'MEMORY.md')).toEqual(['Adaeze Obi member_of Kobo Rails', 'Kobo Rails located_in Lagos']);
  });
});
