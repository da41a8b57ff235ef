import { describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { extractFile } from '../src/graph/extractFile.js';
import { indexedWorkspaces } from './helpers/indexedWorkspace.js';

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

describe('a host named inside the provider that runs a service', () => {
  it('reads "runs on GCP, in `hamia-prod`" as running on both, the host on the provider, and not a cloud region as a host', () => {
    expect(relationsOf('- as of this morning payouts-api runs on GCP, in `hamia-prod`, not on AWS anymore.')).toEqual([
      'payouts-api runs_on GCP',
      'payouts-api runs_on hamia-prod',
      'hamia-prod runs_on GCP',
    ]);
    expect(relationsOf('- Kestrel is hosted on Hetzner (web-1).')).toEqual(['Kestrel runs_on Hetzner', 'Kestrel runs_on web-1', 'web-1 runs_on Hetzner']);
    expect(relationsOf('- ledgerd runs on AWS, in `eu-west-1`.')).toEqual(['ledgerd runs_on AWS']);
  });

  const workspaces = indexedWorkspaces();
  it('keeps the provider and its host both current, while a later move still ends the earlier provider', async () => {
    const db: Database.Database = await workspaces.indexed({
      'memory/2026-09-07.md': '# 2026-09-07\n\n- payouts-api runs on AWS today.\n',
      'memory/2026-10-08.md': '# 2026-10-08\n\n- payouts-api runs on GCP, in `hamia-prod`, not on AWS anymore.\n',
    });
    const until = (o: string) =>
      db.prepare("SELECT c.valid_until FROM graph_claims c JOIN graph_entities s ON s.id = c.subject_id JOIN graph_entities o ON o.id = c.object_id WHERE s.label = 'payouts-api' AND c.predicate = 'runs_on' AND o.label = ?").pluck().get(o);
    expect(until('AWS')).toBe('2026-10-08');
    expect(until('GCP')).toBeNull();
    expect(until('hamia-prod')).toBeNull();
  });
});
