import { describe, expect, it } from 'vitest';
import { extractFile } from '../src/graph/extractFile.js';

/** The typed relations one note yields, as "subject predicate object" lines. */
function relationsOf(text: string, notePath = 'memory/2026-10-01.md'): string[] {
  return extractFile(notePath, text, '2026-10-01', { writerName: null }).flatMap((e) =>
    e.claims.filter((c) => c.object !== null).map((c) => `${e.entities[c.subject]!.label} ${c.predicate} ${e.entities[c.object!]!.label}`),
  );
}

describe('relations in natural sentences', () => {
  it('gives a verb continuing a clause the clause’s subject, and nothing when a sentence ends between them', () => {
    expect(relationsOf('- Kestrel is hosted on Heroku; moved to fly.io on Oct 9.')).toEqual(['Kestrel runs_on Heroku', 'Kestrel moved_to fly.io']);
    expect(relationsOf('- Kestrel runs on Heroku, moved to kube-east later.')).toEqual(['Kestrel runs_on Heroku', 'Kestrel moved_to kube-east']);
    expect(relationsOf('- Sam owns ledgerd and leads the Ledger team.')).toEqual(['Sam owns ledgerd', 'Sam leads Ledger team']);
    expect(relationsOf('- Kestrel runs on Heroku. Moved to kube-east later.')).toEqual(['Kestrel runs_on Heroku']);
  });

  it('reads appositions: "X, who owns Y", "Org, based in Place", "Org (Place)"', () => {
    expect(relationsOf('- Dana Okafor, who owns payments-gateway, is out.')).toEqual(['Dana Okafor owns payments-gateway']);
    expect(relationsOf('- Quillfin, based in Berlin, pays well.')).toEqual(['Quillfin located_in Berlin']);
    expect(relationsOf('- Backend engineer at Quillfin (Berlin, payments infra).')).toEqual(['Quillfin located_in Berlin']);
    // A parenthesis that names no place says nothing.
    expect(relationsOf('- Lunch at Quillfin (the usual).')).toEqual([]);
  });

  it('makes the receiver of a handover the owner, and reads a lowercase host’s list of services', () => {
    expect(relationsOf('- Dana handed the staging box over to Marco Bellini today.')).toEqual(['Marco Bellini owns staging box']);
    expect(relationsOf('- Handed over the on-call rota to Grace.')).toEqual(['Grace owns on-call rota']);
    expect(relationsOf('- Handed the laptop back to them.')).toEqual([]);
    expect(relationsOf('- atlas services: Forgejo, Miniflux.')).toEqual(['Forgejo runs_on atlas', 'Miniflux runs_on atlas']);
  });

  it('reads every section of a person’s note as about them, and never a time word as part of a name', () => {
    expect(relationsOf('# Sam Reyes\n\n## Work with him\n- Owns idempotency keys v2 (PR #1279).', 'memory/people/sam.md')).toEqual(['Sam Reyes owns idempotency keys v2']);
    expect(relationsOf('- ledgerd moved to db-02 yesterday.')).toEqual(['ledgerd moved_to db-02']);
    // The host it moved from is where it ran until then (movedFrom.ts).
    expect(relationsOf('Saturday night Jellyfin moved from kifaru to twiga.')).toEqual(['Jellyfin runs_on kifaru', 'Jellyfin moved_to twiga']);
  });
});

describe('relations in terse described lines', () => {
  it('reads a section headed by a person’s full name in a people note as about them', () => {
    const note = '# Team\n\n### Hope Wanjiku\n- joined Pesaflow 2023 from a telco NOC.\n- volunteers at Msingi Code School too\n';
    expect(relationsOf(note, 'memory/people/team.md')).toEqual(['Hope Wanjiku member_of Pesaflow', 'Hope Wanjiku member_of Msingi Code School']);
    // The same lines in a journal note have no one to be about.
    expect(relationsOf(note, 'memory/2026-10-01.md')).toEqual([]);
  });

  it('goes on past a full stop followed by lowercase, and after "=", but takes no word ending a sentence as a subject', () => {
    expect(relationsOf('- Karim: partner. works at Mawingu Labs in Lavington')).toEqual(['Karim member_of Mawingu Labs', 'Mawingu Labs located_in Lavington']);
    expect(relationsOf('- Priyanka Shah = finance ops, owns the settlement reports')).toEqual(['Priyanka Shah owns settlement reports']);
    expect(relationsOf('- Karim: partner. Works at Mawingu Labs in Lavington')).toEqual(['Mawingu Labs located_in Lavington']);
  });
});

describe('relations over lists and described parts', () => {
  it('gives every whole name of a verb’s list the relation, and a list after "owns:" its names only', () => {
    expect(relationsOf('- Jonas owns Lantern, Elixir and Zamu.')).toEqual(['Jonas owns Lantern', 'Jonas owns Elixir', 'Jonas owns Zamu']);
    // An item with more than a name ("Dana owns the rest") is another clause, not another object.
    expect(relationsOf('- Sam owns ledgerd, and Dana Okafor leads Payouts.')).toEqual(['Sam owns ledgerd', 'Dana Okafor leads Payouts']);
    // A parenthesis of names lists what the item is (and "Cloud SQL" is one known name); one that says more ("since …, from Brian") names no object.
    expect(relationsOf('# Team\n\n### Daniel Kiprop\n- owns: Cloud SQL (`payouts-pg-prod`), the Vault cluster (`vault-nbo-2`, `vault-nbo-3`), Kafka lag exporter (from Brian)', 'memory/people/team.md')).toEqual([
      'Daniel Kiprop owns Cloud SQL',
      'Daniel Kiprop owns payouts-pg-prod',
      'Daniel Kiprop owns vault-nbo-2',
      'Daniel Kiprop owns vault-nbo-3',
    ]);
    expect(relationsOf('# Team\n\n### Hope Wanjiku\n- owns: Lantern (status page, since 18 Sep, from Brian), Elixir on-call', 'memory/people/team.md')).toEqual(['Hope Wanjiku owns Lantern']);
    // A list of places is where one place lies, not several homes.
    expect(relationsOf('- Grace lives in Kilimani, Nairobi.')).toEqual(['Grace located_in Kilimani', 'Kilimani located_in Nairobi']);
  });

  it('reads an organisation among a person’s described parts as where they belong, and a place after it as where it is', () => {
    expect(relationsOf('- Adaeze — SRE lead, Kobo Rails, Lagos. joint GameDay idea')).toEqual(['Adaeze member_of Kobo Rails', 'Kobo Rails located_in Lagos']);
    expect(relationsOf('- Otieno Ouma: assistant coach, Kilimani Stars. drives the matatu')).toEqual(['Otieno Ouma member_of Kilimani Stars']);
    expect(relationsOf('- Tomás Varela — GCP account team, based in Lisbon.')).toEqual(['Tomás Varela located_in Lisbon', 'Tomás Varela member_of GCP']);
    expect(relationsOf('- Kevin — Msingi student, now TA.')).toEqual(['Kevin member_of Msingi']);
    // No role and no name known to be an organisation: nothing said about belonging.
    expect(relationsOf('- Grant Oduya — VP Infrastructure, my manager.')).toEqual([]);
    expect(relationsOf('- Sam Reyes: likes Postgres, Berlin')).toEqual([]);
    // Not a person's description.
    expect(relationsOf('- Tidewater: Kafka, Postgres, Lagos')).toEqual([]);
  });
});

describe('where things are, by noun phrases', () => {
  it('places an organisation or a place in, at or on a place, and a relative in one', () => {
    expect(relationsOf('- Faith Achieng: runs Msingi Code School at Elizabeth House on Ngong Road')).toEqual([
      'Faith Achieng leads Msingi Code School',
      'Msingi Code School located_in Elizabeth House',
      'Elizabeth House located_in Ngong Road',
    ]);
    // The group's place holds the listed person and the parts the items name (placeGroups.ts).
    expect(relationsOf('- Family mostly in Mombasa: Mum in Nyali, brother Juma (for now), aunt Halima in Old Town')).toEqual([
      'Halima located_in Old Town',
      'Nyali located_in Mombasa',
      'Juma located_in Mombasa',
      'Old Town located_in Mombasa',
    ]);
    // A person at a line's opening in a place is a visit; after a verb, where something happened.
    expect(relationsOf('- Daniel Kiprop in Eldoret for the wedding till wed.')).toEqual([]);
    expect(relationsOf('- met Dana Okafor in Lisbon')).toEqual([]);
  });

  it('reads "Place, known city" as where the place lies, but not a list of places', () => {
    expect(relationsOf('- walked around Kilimani, Nairobi, with Karim')).toEqual(['Kilimani located_in Nairobi']);
    expect(relationsOf('- trips to Lisbon, Porto and Madrid')).toEqual([]);
    expect(relationsOf('- badge says "Zawadi Njoroge, Pesaflow, Nairobi"')).toEqual([]);
  });
});

describe('who runs and who is on a project', () => {
  it('reads a person running a named organisation as leading it, and nothing for a host, a phrase or a count', () => {
    // Leading it does not say what it is (a volunteer community is no organisation): no place for an untyped name.
    expect(relationsOf('- Daniel Ferreira — runs Ops Atlântico in Lisbon')).toEqual(['Daniel Ferreira leads Ops Atlântico']);
    expect(relationsOf('- Dana Okafor runs the Kestrel project')).toEqual(['Dana Okafor leads Kestrel']);
    expect(relationsOf('- Dana Okafor runs Postgres 16 on her laptop')).toEqual([]);
    expect(relationsOf('- atlas runs Forgejo')).toEqual([]);
    expect(relationsOf('- Otieno runs saturday’s game vs Kawangware United.')).toEqual([]);
    // A failed reading names nothing new: no entity "30".
    const entities = extractFile('memory/2026-10-01.md', '- Pulled the last 30 runs of TestStatementCutoff from the CI API.', '2026-10-01').flatMap((e) => e.entities.map((x) => x.label));
    expect(entities).not.toContain('30');
  });

  it('reads a project note’s roster: its lead and owner, and its members when they are people', () => {
    const note = '# Hamia — payouts-api AWS → GCP\n\nlead: Zawadi Njoroge (me). members: Hope Wanjiku (Terraform, runbooks), Daniel Kiprop (Cloud SQL)\n';
    expect(relationsOf(note, 'memory/projects/hamia.md')).toEqual(['Zawadi Njoroge leads Hamia', 'Hope Wanjiku works_on Hamia', 'Daniel Kiprop works_on Hamia']);
    // "people:" lists whoever is involved; "team:" may name a team, not a person (its lead is named in the parenthesis).
    expect(relationsOf('# ledgerd\n\n- People: Priya Natarajan (EM), Jonas Weber (platform)\n- Team: Ledger (EM Priya Natarajan).\n', 'memory/projects/ledgerd.md')).toEqual(['Priya Natarajan leads Ledger']);
  });
});

describe('tables of services and hosts', () => {
  it('reads each row of a table headed "service | host" as what runs where, whole cells as names', () => {
    const note = '# homelab\n\n## services → host\n| service | host | since |\n|---|---|---|\n| Jellyfin | twiga | 3 Oct (was kifaru) |\n| Home Assistant | popo | 2024 |\n| `restic` | `kifaru` | 2025 |\n';
    expect(relationsOf(note)).toEqual(['Jellyfin runs_on twiga', 'Home Assistant runs_on popo', 'restic runs_on kifaru']);
  });

  it('reads nothing from a table about something else, from a header row, or from a row far below its table', () => {
    // (A "| thing | before | after |" table is a change table since rules version 11: changeTables.ts, graphRelationRecall.test.ts.)
    expect(relationsOf('| thing | owner | since |\n|---|---|---|\n| Kafka | AWS | 2024 |\n')).toEqual([]);
    expect(relationsOf('| service | host |\n|---|---|\n')).toEqual([]);
    expect(relationsOf('| service | host |\n|---|---|\n| Jellyfin | twiga |\n\nSome text.\n\n| Grafana | twiga |\n')).toEqual(['Jellyfin runs_on twiga']);
    // A sentence in a cell is no name.
    expect(relationsOf('| service | host |\n|---|---|\n| Jellyfin | moved last week to the new box |\n')).toEqual([]);
  });
});

describe('leads named in parentheses', () => {
  it('reads a person’s lead role over teams, and a team’s lead, in a parenthesis', () => {
    expect(relationsOf('- Manager: Priya Natarajan (EM, Ledger + Payouts). 1:1 every Thursday')).toEqual(['Priya Natarajan leads Ledger', 'Priya Natarajan leads Payouts']);
    expect(relationsOf('Double-entry ledger service at Quillfin. Team: Ledger (EM Priya Natarajan). #ledgerd')).toEqual(['Priya Natarajan leads Ledger']);
    // A role alone, or a parenthesis that says something else, leads nothing.
    expect(relationsOf('- Priya Natarajan (EM) said hi')).toEqual([]);
    expect(relationsOf('- Priya Natarajan (lead, on leave)')).toEqual([]);
  });
});

describe('"now in" a place', () => {
  it('places a described person "now in" a known place, and nothing that is "now in" a state or visiting', () => {
    expect(relationsOf('- Tomás Ferreira: ex-colleague from the Porto job, now in Lisbon (Graça), Elixir at a logistics startup.')).toEqual([
      'Tomás Ferreira located_in Lisbon',
      'Tomás Ferreira located_in Graça',
      'Graça located_in Lisbon',
    ]);
    expect(relationsOf('- Kestrel is now in production')).toEqual([]);
    expect(relationsOf('- Dana Okafor is now in Lisbon for the week')).toEqual([]);
  });
});

describe('"now on" and "still on" a host', () => {
  it('reads a service "now on" or "still on" a host or a provider as running there', () => {
    expect(relationsOf('- Jellyfin now on twiga (moved 5 Oct). Nextcloud still on kifaru.')).toEqual(['Jellyfin runs_on twiga', 'Nextcloud runs_on kifaru']);
    expect(relationsOf('- Kafka still on AWS, egress bill is real.')).toEqual(['Kafka runs_on AWS']);
  });

  it('reads nothing for a person, a pet, a duty or a version "now on" something', () => {
    expect(relationsOf('- Hope now on call. Postgres still on 15.')).toEqual([]);
    expect(relationsOf('- Will still on leave, May now on the board.')).toEqual([]);
    expect(relationsOf('- Ruby still on meds after the vet.')).toEqual([]);
  });
});

describe('a release named by its version', () => {
  it('types "v2.4" a project where it is a verb’s subject, and a bare number or a word nothing of the kind', () => {
    const entities = (text: string) => extractFile('memory/2026-10-01.md', text, '2026-10-01', { writerName: null }).flatMap((e) => e.entities.map((m) => `${m.label}:${m.type}`));
    expect(entities('- Freeze extended, so v2.4 moved to 2026-11-24.')).toContain('v2.4:project');
    expect(entities('- Freeze extended, so 2.4 moved to 2026-11-24.')).not.toContain('2.4:project');
    expect(entities('- The meeting moved to Friday.')).not.toContain('meeting:project');
  });
});

describe('a place and its part in a parenthesis', () => {
  it('places the subject in the part too ("now in Lisbon (Graça)"), and in nothing for a parenthesis that is no place', () => {
    expect(relationsOf('- Quillfin, based in Berlin (Mitte).')).toEqual(expect.arrayContaining(['Quillfin located_in Berlin', 'Quillfin located_in Mitte']));
    expect(relationsOf('- Sam lives in Berlin (since 2019).')).toEqual(['Sam located_in Berlin']);
    expect(relationsOf('- Sam lives in Berlin (with Will).')).toEqual(['Sam located_in Berlin']);
  });
});
