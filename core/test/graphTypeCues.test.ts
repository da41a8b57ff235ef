import { describe, expect, it } from 'vitest';
import { extractFile } from '../src/graph/extractFile.js';
import { findMentions } from '../src/graph/mentions.js';
import { knownNameType } from '../src/graph/knownNames.js';
import { typeFromContext } from '../src/graph/typeCues.js';

/** The type findMentions gives the first mention labelled `label` in `text`. */
function typeOf(text: string, label: string): string | undefined {
  return findMentions(text).find((m) => m.label === label)?.type;
}

describe('type cues around a name', () => {
  it('reads the kind of thing a name is called ("a company called X") and a cloud region as a place', () => {
    expect(typeOf('Adaeze runs SRE at a company called Kobo Rails now.', 'Kobo Rails')).toBe('organization');
    expect(typeOf('He shares a flat in a place called Elizabeth, near the centre.', 'Elizabeth')).toBe('place');
    expect(typeOf('We met a guy named Oduya at the meetup.', 'Oduya')).toBe('person');
    expect(typeOf('The bucket lives in eu-west-1 and the replica in africa-south1.', 'eu-west-1')).toBe('place');
    expect(typeOf('The bucket lives in eu-west-1 and the replica in africa-south1.', 'africa-south1')).toBe('place');
    expect(typeOf('Deployed to web-1 again.', 'web-1')).toBe('machine');
  });

  it('takes a project note titled "Name — description" as the note about Name', () => {
    const entries = extractFile('memory/projects/hamia.md', '# Hamia — payouts-api AWS → GCP\n\n- Cutover on 8 Oct.\n', '2026-10-01');
    expect(entries.flatMap((e) => e.entities).filter((m) => m.type === 'project').map((m) => m.label)).toEqual(['Hamia']);
  });

  it('reads a person from a role, a title or what only people have', () => {
    expect(typeOf('- Mika Lindqvist: partner, product designer at a small studio.', 'Mika Lindqvist')).toBe('person');
    expect(typeOf('Notes from the call, Priya (EM, Ledger + Payouts) was there.', 'Priya')).toBe('person');
    expect(typeOf('Appointment with Dr. Hartmann on Friday.', 'Dr. Hartmann')).toBe('person');
    expect(typeOf("Bought a gift for Noor's birthday.", 'Noor')).toBe('person');
    expect(typeOf('The release went out and Ingrid (Finance) confirmed the totals.', 'Ingrid')).toBe('person');
  });

  it('reads an organisation from work at it, its team or its meetup', () => {
    expect(typeOf('She is a backend engineer at Quillfin since 2022.', 'Quillfin')).toBe('organization');
    expect(typeOf('Handover to the Ledger team next week.', 'Ledger')).toBe('organization');
    expect(typeOf('Gave a talk at the Berlin Gophers meetup.', 'Berlin Gophers')).toBe('organization');
    expect(typeOf('Demo with two people from Payouts went fine.', 'Payouts')).toBe('organization');
  });

  it('reads a place from living, travelling or eating there', () => {
    expect(typeOf('He lives in Wedding now.', 'Wedding')).toBe('place');
    expect(typeOf('We booked the flight to Lisbon for Thursday.', 'Lisbon')).toBe('place');
    expect(typeOf('Then dinner with Tomás in Graça, he picks.', 'Graça')).toBe('place');
    expect(typeOf('Lives in Wedding. Moved to Berlin from Madrid in 2019.', 'Berlin')).toBe('place');
    expect(typeOf('Lives in Wedding. Moved to Berlin from Madrid in 2019.', 'Madrid')).toBe('place');
    expect(typeOf('Mostly for the Lisbon trips.', 'Lisbon')).toBe('place');
  });

  it('reads a tool from use, a version or what tools have', () => {
    expect(typeOf('The box is reachable over Tailscale as atlas.', 'Tailscale')).toBe('tool');
    expect(typeOf('the cluster runs Postgres 16 since Tuesday', 'Postgres')).toBe('tool');
    expect(typeOf('the new one is written in Elixir mostly', 'Elixir')).toBe('tool');
    expect(typeOf('atlas services: Forgejo, Miniflux, Immich.', 'Miniflux')).toBe('tool');
    expect(typeOf('Then the Caddy config got a second site.', 'Caddy')).toBe('tool');
  });

  it('reads a project from work on it or its repo', () => {
    expect(typeOf('Spent the afternoon working on Atlas again.', 'Atlas')).toBe('project');
    expect(typeOf('Cloned the Kestrel repo on the laptop.', 'Kestrel')).toBe('project');
  });

  it('says nothing where the words are ambiguous', () => {
    expect(typeOf('Store money as numeric in Postgres and as decimals in Quibble.', 'Quibble')).toBe('concept');
    expect(typeOf('Went there with Kiri, then home.', 'Kiri')).toBe('concept');
    expect(typeOf('Lisbon is one hour behind Berlin in winter.', 'Berlin')).not.toBe('tool');
    expect(typeOf('Since November moving from Docker Compose to plain units.', 'Docker Compose')).not.toBe('place');
  });

  it('does not read a sentence-initial adjective or numbered step as a name', () => {
    expect(findMentions('Old cluster: delete after seven days.').find((m) => m.label === 'Old')?.certainty).toBe('tentative');
    expect(findMentions('Phase 2 starts Monday.').find((m) => m.label === 'Phase')?.certainty ?? 'tentative').toBe('tentative');
    expect(typeFromContext('', ' 16.10 since the upgrade', { sentenceStart: true })).toBe('tool');
    expect(typeFromContext('', ' 2 starts Monday', { sentenceStart: true })).toBeNull();
    expect(typeFromContext('', ' cluster: delete', { sentenceStart: true })).toBeNull();
  });

  it('reads what a thing was rewritten or ported in as a language, not a place', () => {
    expect(typeFromContext('rewrote the ingest parser in ', ' over the weekend')).toBe('tool');
    expect(typeFromContext('ported the CLI to ', '.')).toBe('tool');
    expect(typeFromContext('wrote the post in ', ' last week')).not.toBe('tool');
  });

  it('does not take a unit or a count for a version', () => {
    expect(typeFromContext('the ', ' 3 days later')).toBeNull();
    expect(typeFromContext('about ', ' 40 GB free')).toBeNull();
    expect(typeFromContext('on ', ' 12 people')).toBeNull();
  });

  it('knows widely known names, and leaves names that are also words or first names to the context', () => {
    expect(typeOf('Notes on the upgrade: Kubernetes first, then the rest.', 'Kubernetes')).toBe('tool');
    expect(typeOf('The offsite is in Lisbon this year.', 'Lisbon')).toBe('place');
    expect(typeOf('Invoice sent, Ingrid approved it.', 'Ingrid')).toBe('person');
    expect(knownNameType('Priya Natarajan')).toBe('person');
    expect(knownNameType('Priya Berlin')).toBeNull();
    expect(knownNameType('Jean-Luc')).toBe('person');
    expect(knownNameType('Buenos Aires')).toBe('place');
    for (const ambiguous of ['Florence', 'Victoria', 'Will', 'May', 'Rust', 'Go', 'Swift', 'Slack', 'Hugo', 'Jordan']) expect(knownNameType(ambiguous)).toBeNull();
    // Florence is a person when the words say so, whatever her name also means.
    expect(typeOf('Florence said the venue is booked.', 'Florence')).toBe('person');
  });
});

describe('types from a name\'s own words, its list and its itinerary', () => {
  it('reads a place or an organisation from the head word of its name', () => {
    expect(typeOf('Running Sundays on Tempelhofer Feld, about 8 km.', 'Tempelhofer Feld')).toBe('place');
    expect(typeOf('The dentist on Kastanienallee moved.', 'Kastanienallee')).toBe('place');
    expect(typeOf('Pick-up from Lindenhof School at three.', 'Lindenhof School')).toBe('organization');
    expect(typeOf('Contract signed with Tidewater Analytics today.', 'Tidewater Analytics')).toBe('organization');
    // A surname is not a street: "Hall" and "Park" alone say nothing, a known first name says person.
    expect(typeOf('Coffee with Priya Park tomorrow.', 'Priya Park')).toBe('person');
  });

  it('reads an airport code in an itinerary, a city in a time zone and "X, <country>"', () => {
    expect(typeOf('Out: Thu, BER 19:40 → LIS 22:25 local.', 'BER')).toBe('place');
    expect(typeOf('Out: Thu, BER 19:40 → LIS 22:25 local.', 'LIS')).toBe('place');
    expect(typeOf('A CI job with TZ=Pacific/Chatham runs nightly.', 'Chatham')).toBe('place');
    expect(typeOf('Dinner in a tiny place near Ghent, Belgium.', 'Ghent')).toBe('place');
    // Three capitals that are not in an itinerary stay unknown.
    expect(typeOf('The ADR says BER is frozen for now.', 'BER')).not.toBe('place');
  });

  it('passes a list\'s one type to its untyped members, and no type to a mixed list', () => {
    expect(typeOf('Walked to Belem, then Quintal Novo.', 'Quintal Novo')).toBe('place');
    expect(typeOf('atlas services: Forgejo, Miniflux and Shelfmark.', 'Shelfmark')).toBe('tool');
    expect(typeOf('Met Priya and Quorra for lunch.', 'Quorra')).toBe('person');
    expect(typeOf('On the list: Priya, Berlin and Quorra.', 'Quorra')).toBe('concept');
  });

  it('reads a version after a comma, a host from ssh, and a person from "and I" or their house', () => {
    expect(typeOf('ledger service, Go 1.27, pgx and sqlc.', 'Go')).toBe('tool');
    expect(typeFromContext('about ', ' 1,905 automatic')).toBeNull();
    expect(typeOf('Then ssh Hestia and restart the units.', 'Hestia')).toBe('machine');
    expect(typeOf('Went with Kiri and I took the train back.', 'Kiri')).toBe('person');
    expect(typeOf("Dinner at Kiri's place on Friday.", 'Kiri')).toBe('person');
  });

  it('reads a tool from a known name in backticks or a snake_case name used as software', () => {
    expect(findMentions('Backups with `restic` nightly.').find((m) => m.label === 'restic')?.type).toBe('tool');
    expect(findMentions('Ran pg_upgrade on staging.').find((m) => m.label === 'pg_upgrade')?.type).toBe('tool');
    expect(findMentions('Then installed pg_partman on the replica.').find((m) => m.label === 'pg_partman')?.type).toBe('tool');
    expect(findMentions('The column statement_tz is null.').find((m) => m.label === 'statement_tz')?.type).toBe('identifier');
  });

  it('lets a sentence open with a name and a noun, not with an adjective and a noun', () => {
    expect(typeOf('Hugo version pinned in the Makefile.', 'Hugo')).toBe('tool');
    expect(findMentions('New version pinned in the Makefile.').find((m) => m.label === 'New')?.certainty ?? 'tentative').toBe('tentative');
  });
});

describe('cues that point at the wrong name', () => {
  it('reads teams either side of a score, not a version', () => {
    expect(typeOf('Sat: Ndovu Stars 2 – 1 Riruta Rovers. First win.', 'Ndovu Stars')).toBe('organization');
    expect(typeOf('Sat: Ndovu Stars 2 – 1 Riruta Rovers. First win.', 'Riruta Rovers')).toBe('organization');
  });

  it('gives a role to the name it describes, not to the name before it', () => {
    expect(typeOf('- Family mostly in Tanga: Mum in Pangani now.', 'Tanga')).not.toBe('person');
    expect(typeOf('- Mum in Pangani, brother Juma in town.', 'Pangani')).not.toBe('person');
    expect(typeOf('- alerts via Pagerly (on-call app) for now.', 'Pagerly')).not.toBe('person');
    expect(typeOf('- Juma: brother, moving next month.', 'Juma')).toBe('person');
  });

  it('does not take a name after a preposition for the subject of the next verb', () => {
    expect(typeOf('- Casa Azul in Alfama confirmed, 4 nights.', 'Alfama')).not.toBe('person');
    expect(typeOf('- Ottilie confirmed, 4 nights.', 'Ottilie')).toBe('person');
  });

  it('lets where the words put a first name outweigh the name list, and a building outweigh a first name', () => {
    expect(typeOf('Juma flew to Charlotte for the job.', 'Charlotte')).toBe('place');
    expect(typeOf('Visiting Charlotte on Sunday.', 'Charlotte')).toBe('person');
    expect(typeOf('First meeting at Elizabeth House, 3rd floor.', 'Elizabeth House')).toBe('place');
  });

  it('reads a person from a pronoun that follows or being on call, a place from a meal there, not from a meal at someone\'s', () => {
    expect(typeOf('- new owner for it. Ottilie? she is faster than me.', 'Ottilie')).toBe('person');
    // A pronoun after a known place belongs to someone else.
    expect(typeOf('- 04:00 EAT = 02:00 Lisbon, he laughed.', 'Lisbon')).toBe('place');
    expect(typeOf('- standup: Ottilie on call this week.', 'Ottilie')).toBe('person');
    expect(typeOf('- Karim: dinner at Mawimbi on the 19th.', 'Mawimbi')).toBe('place');
    expect(typeOf("- dinner at Ottilie's on the 19th.", 'Ottilie')).not.toBe('place');
    expect(typeOf('- flights: Nairobi → Kabana → Lisbon.', 'Kabana')).toBe('place');
  });

  it('needs a conjunction to read two names as a list, and a person-shaped name for a weak person cue', () => {
    expect(typeOf('Lunch at Kahawa Corner, Quorra paying.', 'Quorra')).toBe('concept');
    expect(findMentions('compute the bounds with AddDate instead.').find((m) => m.label === 'AddDate')?.hint).toBeUndefined();
  });
});

describe('a line that opens with a name and describes it', () => {
  /** The relations extractFile states in a one-line note, as "subject predicate object". */
  function relationsOf(line: string): string[] {
    const [entry] = extractFile('memory/people.md', `# People\n\n${line}\n`, '2026-11-01');
    return entry!.claims.filter((c) => c.object !== null).map((c) => `${entry!.entities[c.subject]!.label} ${c.predicate} ${entry!.entities[c.object!]!.label}`);
  }

  it('takes the name for the subject of a verb in its description', () => {
    expect(relationsOf('- Jonas Weber: platform/SRE, owns Postgres and the CI runners.')).toContain('Jonas Weber owns Postgres');
    expect(relationsOf('- Mei Tanaka — contractor, works at Northwind since May.')).toContain('Mei Tanaka member_of Northwind');
  });

  it('not when the verb is in a later sentence or the line does not open with the name', () => {
    expect(relationsOf('- Jonas Weber: platform/SRE. Later someone owns Postgres.')).not.toContain('Jonas Weber owns Postgres');
    expect(relationsOf('- Asked Jonas Weber: who owns Postgres now?')).not.toContain('Jonas Weber owns Postgres');
  });
});

describe('relations a note or a line states without a subject next to the verb', () => {
  function relationsIn(path: string, text: string): string[] {
    return extractFile(path, text, '2026-11-01').flatMap((entry) =>
      entry.claims.filter((c) => c.object !== null).map((c) => `${entry.entities[c.subject]!.label} ${c.predicate} ${entry.entities[c.object!]!.label}`),
    );
  }

  it("reads a person's own note: a line without a subject is about them", () => {
    const found = relationsIn('memory/people/mei.md', '# Mei Tanaka\n\n- Lives in Rosemont. Works at Northwind since 2024.\n- Senior engineer at Tidewater Analytics.\n');
    expect(found).toEqual(expect.arrayContaining(['Mei Tanaka located_in Rosemont', 'Mei Tanaka member_of Northwind', 'Mei Tanaka member_of Tidewater Analytics']));
  });

  it('does not give a project the verbs only people have, nor a daily note a topic', () => {
    expect(relationsIn('memory/projects/ledgerd.md', '# ledgerd\n\n- Owns journal entries and balances.\n')).toEqual([]);
    expect(relationsIn('memory/2026-11-01.md', '# 2026-11-01\n\n- Lives in Rosemont now, apparently.\n')).toEqual([]);
  });

  it('reads "Name (Org)" and "Name (Place)" after a person, and a named host\'s list of services', () => {
    expect(relationsIn('memory/2026-11-01.md', '- Lena Vogel (Berlin Gophers) asked for a talk.\n')).toContain('Lena Vogel member_of Berlin Gophers');
    expect(relationsIn('memory/2026-11-01.md', '- Dinner with Tomás Ferreira (Lisbon) on Friday.\n')).toContain('Tomás Ferreira located_in Lisbon');
    const services = relationsIn('memory/2026-11-01.md', '- hestia-01 services: Nextcloud, Jellyfin, Immich.\n');
    expect(services).toEqual(expect.arrayContaining(['Nextcloud runs_on hestia-01', 'Jellyfin runs_on hestia-01', 'Immich runs_on hestia-01']));
  });
});

describe('section nouns inside names', () => {
  it('keeps a section noun between two name words in the name, and splits at one that ends or opens it', () => {
    expect(findMentions('- volunteer at Msingi Code School on Wednesdays').map((m) => m.label)).toContain('Msingi Code School');
    expect(findMentions('Lisbon Travel Notes for the week').map((m) => m.label)).not.toContain('Lisbon Travel');
    expect(findMentions('Kestrel Release went out').map((m) => m.label)).toContain('Kestrel');
  });
});

describe('relatives', () => {
  it('types a name after the word for a relative as a person', () => {
    expect(findMentions('Family: brother Juma, aunt Halima in Old Town').find((m) => m.label === 'Halima')?.type).toBe('person');
    expect(findMentions('Family: brother Juma, aunt Halima in Old Town').find((m) => m.label === 'Juma')?.type).toBe('person');
  });
});

describe('places and organisations by the words around them', () => {
  it('types a name in a parenthesis after a known city, after a venue "in", and before "hub" as a place', () => {
    expect(typeOf('- now in Lisbon (Graça), Elixir at a startup', 'Graça')).toBe('place');
    // A first name in the list still yields to the words: "the academy in Karen".
    expect(typeOf('- a trial at the academy in Karen. said yes', 'Karen')).toBe('place');
    expect(typeOf('- the sessions at the Kibera hub from January', 'Kibera')).toBe('place');
    // A parenthesis after a person or an unknown name says nothing of the sort.
    expect(typeOf('- Mika (Ottilie) said', 'Ottilie')).not.toBe('place');
  });

  it('types a name before "account manager" as an organisation', () => {
    expect(typeOf('- Simu Telecom account manager changed again', 'Simu Telecom')).toBe('organization');
  });
});

describe('places by walks and streets', () => {
  it('types where a walk goes and the street a building is on as places', () => {
    expect(typeOf('- skipped two talks, walked Alfama to Graça and back.', 'Graça')).toBe('place');
    expect(typeOf('- Walked the river to MAAT, then on to the bookshop.', 'MAAT')).toBe('place');
    expect(typeOf('Otieno found the school field on Argwings Kodhek instead', 'Argwings Kodhek')).toBe('place');
  });

  it('leaves what is walked through, worked on or is "on" a day alone', () => {
    expect(typeOf('- walked Priya through the migration to Postgres.', 'Postgres')).toBe('tool');
    expect(typeOf('- Walked Mika through the Quillfin offer.', 'Quillfin')).not.toBe('place');
    expect(typeOf('- Rust on the new office laptop, finally.', 'Rust')).not.toBe('place');
    expect(typeOf('- May from the office on Will Street.', 'May')).not.toBe('place');
  });
});
