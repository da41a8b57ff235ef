import { describe, expect, it } from 'vitest';
import { entryFacts, recogniseNames } from '../src/dreaming/judgment/entryFacts.js';
import { relate } from '../src/dreaming/judgment/relation.js';
import { dream, dreamingWorkspaceEachTest, recallOver } from './helpers/dreaming.js';

const OPEN_GATES = { minScore: 0, minRecallCount: 1, minUniqueQueries: 1 };
const STAGING_LINE = '- The staging database is ledgerd-staging on port 5433. Source: memory/2026-11-20.md#L3-L3';

const AT = new Date(2026, 10, 29, 3, 0, 0).getTime();
const { setup, read } = dreamingWorkspaceEachTest(AT);
const STAGING_RECALLS = [
  { query: 'staging database port', daysAgo: 1 },
  { query: 'ledgerd-staging host', daysAgo: 0 },
];

describe('judgment: how two entries relate', () => {
  it('tells a restatement, a changed value and an unrelated fact apart', () => {
    const original = entryFacts('The Kestrel staging box is kes-stg-01.ferrow.internal, API on port 8443, reachable only over the corp VPN.');
    expect(relate(entryFacts('Reminder to self: staging is kes-stg-01.ferrow.internal:8443 and you must be on the VPN first.'), original).relation).toBe('duplicate');
    expect(relate(entryFacts('Staging moved: the Kestrel staging box is now kes-stg-02.ferrow.internal, still port 8443 and VPN-only.'), original).relation).toBe('same-attribute');
    expect(relate(entryFacts('Prod database for Kestrel: Postgres 15 on pg-kes-prod.ferrow.internal:5432.'), original).relation).toBe('unrelated');
    expect(relate(entryFacts('Prefer polars over pandas for anything above a million rows.'), entryFacts('Prefer pandas for exploration.')).relation).toBe('same-attribute');
    // Other scripts and languages never crash the comparison.
    expect(['duplicate', 'same-attribute', 'unrelated']).toContain(relate(entryFacts('ステージングは kes-stg-01 です'), original).relation);
  });

  it('a fact restated in another language is a duplicate by its identifiers and names; another value for the same identifier is not', () => {
    const english = entryFacts('Solvent waste goes in the red drums in room 118C; Veolia collects on the last Friday of the month.');
    expect(relate(entryFacts('Oplosmiddelafval in de rode vaten in lokaal 118C; Veolia haalt het op de laatste vrijdag.'), english).relation).toBe('duplicate');
    expect(relate(entryFacts('Disolventes: bidones rojos del aula 118C, los recoge Veolia el último viernes.'), english).relation).toBe('duplicate');
    // The same name, another room: a changed fact, not a restatement.
    expect(relate(entryFacts('Oplosmiddelafval staat nu in lokaal 214B; Veolia haalt het op.'), english).relation).not.toBe('duplicate');
    // The same room, no shared name: nothing ties two sentences in different languages.
    expect(relate(entryFacts('Lokaal 118C is op vrijdag gesloten.'), english).relation).not.toBe('duplicate');
  });

  it('short forms name the same subject ("PRs", "pull requests"); a newer deploy path is a change of the old one, not a new fact', () => {
    const rule = entryFacts('Always keep pull requests small, under 300 lines; split otherwise.');
    const reversed = entryFacts('Actually, PRs up to 500 lines are fine when most of it is generated code.');
    expect(relate(reversed, rule).relation).toBe('same-attribute');
    const oldPath = entryFacts('Releases now ship through the Jenkins job release.groovy (manual gate for production).');
    const newPath = entryFacts('Releases now ship through Spinnaker (pipeline atlas-prod); release.groovy only builds the artefact.');
    expect(relate(newPath, oldPath)).toMatchObject({ relation: 'same-attribute' });
    expect(relate(newPath, oldPath).reason).toMatch(/spinnaker|jenkins/);
    // "45-day" and "45 days" are one value, so the restatement is a duplicate, not a second line.
    expect(relate(entryFacts('Billbox is the invoicing tool now (45 days to pay).'), entryFacts('Invoices now go out from Billbox (moved from Paylane), still 45-day payment terms.')).relation).toBe('duplicate');
  });

  it('two jobs each named by its own identifier are two facts, whatever words their asides and schedules share', () => {
    const moved = entryFacts('etl_orders_hourly now runs at 01:15 UTC (moved so it finishes before the 05:00 billing export).');
    // Shares "runs … UTC", the 05:00 and the billing export of the aside, but names another job.
    expect(relate(moved, entryFacts('The billing export `billing_export_daily` runs at 05:00 UTC and lands in FIN.EXPORTS.')).relation).toBe('unrelated');
    // The same job at another time: the newer note changes it.
    expect(relate(moved, entryFacts('The orders ETL is `etl_orders_hourly` in Dagster, runs at 03:00 UTC.')).relation).toBe('same-attribute');
    // The same job, but how to rerun it (a count of days, not a time): another fact about it, both stand.
    expect(relate(entryFacts('To rerun orders: trigger etl_orders_hourly with a window; never more than 14 days per run or the cluster stalls.'), moved).relation).toBe('unrelated');
    // An identifier that is the value of a role ("X is the new staging host") still changes that role.
    expect(relate(entryFacts('kes-stg-02 is the new staging host, same port and VPN rules.'), entryFacts('Staging host is kes-stg-01, port 8443, VPN only.')).relation).toBe('same-attribute');
    // An aside that holds the shared subject still ties a changed path to the old one.
    const releases = entryFacts('Releases now go through the Buildkite pipeline release.yml (manual approval for prod).');
    expect(relate(releases, entryFacts('Kestrel releases are cut by hand with `make release ENV=prod` on the bastion.')).relation).toBe('same-attribute');
  });
});

describe('judgment: changes announced in any tense or sentence, prices and replaced values', () => {
  it('a change in the present tense ("moves to") or in a second sentence supersedes the fact it changes', () => {
    const fortnightly = entryFacts('Release train for the mobile app: every second Wednesday, Lena can stop it at any stage.');
    expect(relate(entryFacts('Release train moves to weekly: every Wednesday, still via the beta channel.'), fortnightly).relation).toBe('same-attribute');
    // Without the change word the same words are a restatement.
    expect(relate(entryFacts('Release train for the mobile app: every second Wednesday.'), fortnightly).relation).toBe('duplicate');
    const contact = entryFacts('Freight forwarder: Nordhafen Logistics (Hamburg, Speicherstadt office), account manager Jonas Weber.');
    const handover = entryFacts('As of today Petra Lang is our account manager at Nordhafen. Jonas moved over to the air-freight desk.');
    expect(relate(handover, contact).relation).toBe('same-attribute');
  });

  it('a sentence is about what it opens with: a change to a supplier does not supersede a procedure that mentions its name', () => {
    const procedure = entryFacts('Export for print from Affinity: preset "Ostwerk PDF/X-1a", 4 mm bleed, crop marks on.');
    const supplier = entryFacts('Druckhaus Ostwerk changed: proofs now take 4 working days and they want PDF/X-1a with 6 mm bleed.');
    expect(relate(supplier, procedure).relation).not.toBe('same-attribute');
  });

  it('two prices for one named thing dispute its price; an order of that thing does not', () => {
    const memo = entryFacts("Rui's launch memo: Kettle Mini sells at €89 (US$95).");
    const catalogue = entryFacts("The retailer's catalogue lists Kettle Mini at €99.");
    expect(relate(memo, catalogue)).toMatchObject({ relation: 'same-attribute', byValue: true });
    // A count of units beside a price: other things said about it, both stand.
    expect(relate(entryFacts('Hausmann spring order: 2,400 Kettle Minis, Rui Costa buying.'), catalogue).relation).toBe('unrelated');
    // The currency is not a name: "US" of US$95 ties nothing.
    expect(memo.names.has('us')).toBe(false);
  });

  it('a value the newer entry says it replaces ("down from 41.20") is a changed value, not a restatement', () => {
    const target = entryFacts('Unit cost target (approved by finance): €41.20 per unit at 5k volume.');
    expect(relate(entryFacts('Finance approved the new unit cost target: €39.00 at 5k units (down from 41.20).'), target)).toMatchObject({ relation: 'same-attribute', byValue: true });
  });

  it('"1,200" and "1200" are one number, never 200', () => {
    expect(entryFacts('Opening order of 1,200 units, 24,800 EUR all-in.').values).toEqual(expect.arrayContaining(['1200', '24800']));
    expect(entryFacts('Opening order of 1,200 units.').values).not.toContain('200');
  });
});

describe('judgment in a sweep', () => {
  it('a restatement reinforces the existing entry (its source list grows) instead of adding a line', async () => {
    const { service, clock } = await setup({
      'MEMORY.md': `# Long-Term Memory\n\n## Infra\n${STAGING_LINE}\n`,
      'memory/2026-11-28.md': '# 2026-11-28\n\n- Reminder: staging db is ledgerd-staging, port 5433.\n',
    });
    await recallOver(service, clock, STAGING_RECALLS);
    const run = await dream(service, { thresholds: OPEN_GATES });
    const candidate = run.candidates.find((c) => c.key === 'memory/2026-11-28.md:3:3');
    expect(candidate?.outcome).toBe('duplicate');
    expect(candidate?.gates.find((g) => g.gate === 'judgment')?.detail).toContain('restates');
    expect(run.curation).toMatchObject({ dedupes: 1, conflicts: 0 });
    expect(run.narrative).toContain('left out 1 restatement');
    expect(read('MEMORY.md')).toBe(`# Long-Term Memory\n\n## Infra\n${STAGING_LINE}, memory/2026-11-28.md#L3-L3\n`);
    // The next night the restatement is recalled again: it is in memory already (its source is listed), not a new line.
    clock.set(clock.now() + 24 * 3_600_000);
    await recallOver(service, clock, STAGING_RECALLS);
    const again = await dream(service, { thresholds: OPEN_GATES });
    expect(again.candidates.find((c) => c.key === 'memory/2026-11-28.md:3:3')?.gates.find((g) => g.gate === 'already-in-memory')?.passed).toBe(false);
    expect(read('MEMORY.md')).toBe(`# Long-Term Memory\n\n## Infra\n${STAGING_LINE}, memory/2026-11-28.md#L3-L3\n`);
  });

  it('a newer note supersedes the entry by its date; an older note never supersedes a newer entry', async () => {
    const { service, clock } = await setup({
      'MEMORY.md': `# Long-Term Memory\n\n## Infra\n${STAGING_LINE}\n- The invoice worker runs on port 7001. Source: memory/2026-11-28.md#L9-L9\n`,
      'memory/2026-11-27.md': '# 2026-11-27\n\n- The invoice worker runs on port 7000.\n',
      'memory/2026-11-28.md': '# 2026-11-28\n\n- The staging database moved: now ledgerd-staging-2 on port 5434.\n',
    });
    await recallOver(service, clock, [...STAGING_RECALLS, { query: 'invoice worker port', daysAgo: 1 }, { query: 'which port invoice worker', daysAgo: 0 }]);
    const run = await dream(service, { thresholds: OPEN_GATES });
    const memory = read('MEMORY.md');
    expect(memory).toContain(`${STAGING_LINE} <!-- status: superseded -->`);
    expect(memory).toContain('- The staging database moved: now ledgerd-staging-2 on port 5434. Source: memory/2026-11-28.md#L3-L3');
    expect(memory).not.toContain('port 7000');
    expect(run.promoted.find((p) => p.candidateKey === 'memory/2026-11-28.md:3:3')).toMatchObject({ action: 'superseded' });
    expect(run.candidates.find((c) => c.key === 'memory/2026-11-27.md:3:3')?.gates.find((g) => g.gate === 'judgment')?.detail).toContain('superseded by the newer');
  });

  it('a restatement after a supersession, worded apart from the line that superseded, reinforces it: both replace the same older fact and state the same values', async () => {
    const changed = '- Cloud bill split changed: data team share goes up to 40%, platform 60%, from this month. Mirela signed off Source: memory/2026-11-18.md#L3-L3';
    const { service, clock } = await setup({
      'MEMORY.md': `# Long-Term Memory\n\n## Costs\n${changed}\n`,
      'memory/2026-11-10.md': '# 2026-11-10\n\n- Cloud bill split: platform team pays 70%, data team 30%, by usage. Mirela runs it in Vantage\n',
      'memory/2026-11-27.md': '# 2026-11-27\n\n- cloud bill split by usage is 60/40 platform/data now, same ratio as last quarter\n',
    });
    await recallOver(service, clock, [
      { query: 'cloud bill split platform data', daysAgo: 1 },
      { query: 'how is the cloud bill split', daysAgo: 0 },
    ]);
    const run = await dream(service, { thresholds: OPEN_GATES });
    expect(run.candidates.find((c) => c.key === 'memory/2026-11-10.md:3:3')?.outcome).toBe('not-written');
    const restated = run.candidates.find((c) => c.key === 'memory/2026-11-27.md:3:3');
    expect(restated?.outcome).toBe('duplicate');
    expect(restated?.gates.find((g) => g.gate === 'judgment')?.detail).toContain('both replace');
    expect(read('MEMORY.md')).toBe(`# Long-Term Memory\n\n## Costs\n${changed}, memory/2026-11-27.md#L3-L3\n`);
  });

  it('a later change of that value is not taken for a restatement', async () => {
    const changed = '- Cloud bill split changed: data team share goes up to 40%, platform 60%, from this month. Mirela signed off Source: memory/2026-11-18.md#L3-L3';
    const { service, clock } = await setup({
      'MEMORY.md': `# Long-Term Memory\n\n## Costs\n${changed}\n`,
      'memory/2026-11-10.md': '# 2026-11-10\n\n- Cloud bill split: platform team pays 70%, data team 30%, by usage. Mirela runs it in Vantage\n',
      'memory/2026-11-27.md': '# 2026-11-27\n\n- cloud bill split by usage is 50/50 platform/data now, same ratio as last quarter\n',
    });
    await recallOver(service, clock, [
      { query: 'cloud bill split platform data', daysAgo: 1 },
      { query: 'how is the cloud bill split', daysAgo: 0 },
    ]);
    const run = await dream(service, { thresholds: OPEN_GATES });
    expect(run.candidates.find((c) => c.key === 'memory/2026-11-27.md:3:3')?.outcome).not.toBe('duplicate');
    expect(read('MEMORY.md')).not.toContain('memory/2026-11-27.md#L3-L3, ');
    expect(read('MEMORY.md')).not.toContain(`${changed}, memory/2026-11-27.md`);
  });

  it('a chain of changes in one sweep: the newest is written and the entry the middle one replaced is retired too', async () => {
    const byHand = '- Releases are cut by hand with `make release ENV=prod` on the bastion.';
    const { service, clock } = await setup({
      'MEMORY.md': `# Long-Term Memory\n\n## Infra\n${byHand}\n`,
      'memory/2026-11-20.md': '# 2026-11-20\n\n- Releases now go through the Buildkite pipeline release.yml (manual approval for prod).\n',
      'memory/2026-11-27.md': '# 2026-11-27\n\n- Releases now go through Spinnaker (pipeline atlas-prod); release.yml only builds the artefact.\n',
    });
    await recallOver(service, clock, [
      { query: 'how do releases go to prod', daysAgo: 2 },
      { query: 'release pipeline', daysAgo: 1 },
      { query: 'releases release.yml', daysAgo: 0 },
    ]);
    const run = await dream(service, { thresholds: OPEN_GATES });
    const memory = read('MEMORY.md');
    expect(memory).toContain(`${byHand} <!-- status: superseded -->`);
    expect(memory).toContain('- Releases now go through Spinnaker');
    expect(memory).not.toContain('Buildkite');
    expect(run.candidates.find((c) => c.key === 'memory/2026-11-20.md:3:3')?.outcome).not.toBe('promoted');
  });

  it('a moved schedule retires the old one only: a fact that merely shares its room stays, and a later restatement in another language adds no line', async () => {
    const teaching = '- I teach Physics (periods 1 and 3) and Astronomy (period 5) in room 305.';
    const choir = '- Choir (the Northside Larks) rehearses Mon/Wed 4:00–6:00 in room 112.';
    const { service, clock } = await setup({
      'MEMORY.md': `# Long-Term Memory\n\n## School\n${teaching}\n${choir}\n- The science office is on the second floor.\n- Parking permits come from the front desk.\n`,
      'memory/2026-11-20.md': '# 2026-11-20\n\n- CHOIR MOVED: choir now rehearses in 305 (my room) starting today, still Mon/Wed 4:00–6:00. 112 is getting the new pianos.\n',
      'memory/2026-11-25.md': '# 2026-11-25\n\n- Aviso para las familias: el coro ensaya lunes y miércoles de 4:00 a 6:00 en el aula 305.\n',
    });
    await recallOver(service, clock, [
      { query: 'choir rehearsal room', daysAgo: 2 },
      { query: 'where does choir rehearse 305', daysAgo: 1 },
      { query: 'coro ensaya aula 305 4:00 6:00', daysAgo: 0 },
    ]);
    const run = await dream(service, { thresholds: OPEN_GATES });
    const memory = read('MEMORY.md');
    expect(memory).toContain(`${choir} <!-- status: superseded -->`);
    expect(memory).toContain(`${teaching}\n`);
    expect(memory).toContain('- CHOIR MOVED: choir now rehearses in 305');
    expect(memory).not.toContain('Aviso para las familias');
    expect(run.candidates.find((c) => c.key === 'memory/2026-11-25.md:3:3')?.outcome).not.toBe('promoted');
  });

  it('two claims of the same day that disagree are queued, not written; the person decides and the next sweep follows', async () => {
    const { service, clock } = await setup({
      'MEMORY.md': '# Long-Term Memory\n',
      'memory/2026-11-28.md': '# 2026-11-28\n\n- The wiki says the metrics endpoint listens on port 9102.\n- Jun says the metrics endpoint is on port 9464.\n',
    });
    await recallOver(service, clock, [
      { query: 'metrics endpoint port', daysAgo: 1 },
      { query: 'which port metrics endpoint', daysAgo: 0 },
    ]);
    const run = await dream(service, { thresholds: OPEN_GATES });
    expect(run.contradictions).toHaveLength(1);
    expect(run.curation?.conflicts).toBe(1);
    expect(run.narrative).toContain('queued 1 contradiction for you in Dreams → Conflicts');
    expect(read('MEMORY.md')).not.toContain('metrics endpoint');
    const { conflicts } = await service.invoke('dream.conflicts', { status: 'open' });
    expect(conflicts).toHaveLength(1);
    const conflict = conflicts[0]!;
    const keepJun = conflict.a.text.startsWith('Jun') ? 'keep-a' : 'keep-b';
    const resolved = await service.invoke('dream.resolve', { conflictId: conflict.id, decision: keepJun });
    expect(resolved.status).toBe(keepJun);
    expect((await service.invoke('dream.conflicts', { status: 'open' })).conflicts).toHaveLength(0);
    await expect(service.invoke('dream.resolve', { conflictId: 'conflict:nope', decision: 'keep-a' })).rejects.toThrow(/No contradiction/);

    clock.advanceDays(1);
    await recallOver(service, clock, [{ query: 'metrics endpoint port 9464', daysAgo: 0 }]);
    await dream(service, { thresholds: OPEN_GATES });
    expect(read('MEMORY.md')).toContain('Jun says the metrics endpoint is on port 9464.');
    expect(read('MEMORY.md')).not.toContain('9102');
  });

  it('durations and frequencies are values: "3 wks" and "10 school days", "weekly" and "monthly" dispute; "2 weeks" and "14 days" agree', () => {
    const weeks = entryFacts('Per the office: expense reports are due 3 wks after the trip.');
    expect(weeks.values).toContain('21d');
    const days = entryFacts('The finance handbook says expense reports are due 10 working days after a trip.');
    expect(days.values).toContain('10d');
    expect(relate(days, weeks)).toMatchObject({ relation: 'same-attribute', byValue: true });
    expect(relate(entryFacts('Expense reports are due 14 days after the trip.'), entryFacts('Expense reports are due 2 weeks after the trip.')).relation).toBe('duplicate');
    // Spelled out too: "two weeks" is 14 days.
    expect(entryFacts('Proofs take two weeks.').values).toContain('14d');
    const weekly = entryFacts('The boiler filter in the basement gets cleaned weekly, by the caretaker.');
    const monthly = entryFacts('Ravi says boiler filter cleaning is monthly and the landlord does it.');
    expect(weekly.values).toContain('every-7d');
    expect(monthly.values).toContain('every-30d');
    expect(relate(monthly, weekly)).toMatchObject({ relation: 'same-attribute', byValue: true });
    // "every second Tuesday" and "every Tuesday" are two schedules of one train.
    expect(entryFacts('Release train: every second Tuesday, staged over two days.').values).toContain('every-14d');
    expect(relate(entryFacts('Release train moves to every Tuesday, still staged.'), entryFacts('Release train: every second Tuesday, staged over two days.')).relation).toBe('same-attribute');
    // A shared frequency ties nothing: two weekly chores are two facts.
    expect(relate(entryFacts('Bins go out weekly on the kerb.'), entryFacts('The aquarium water gets changed weekly.')).relation).toBe('unrelated');
    // A clock time is not a duration, nor is a room number.
    expect(entryFacts('Standup at 9:30 in room 12.').values.some((v) => /min$|d$/.test(v))).toBe(false);
  });

  it('a name at the start of a sentence is recognised when another entry names it mid-sentence, and then ties a restatement in another language', () => {
    const spanish = entryFacts('Nota: la mamá de Jaylen (Sra. Brooks) prefiere que la llamen, no correo, y solo después de las 5pm.');
    const english = entryFacts("Jaylen's mom again: call after 5pm, she doesn't read email");
    expect(relate(english, spanish).relation).toBe('unrelated');
    recogniseNames([spanish, english]);
    expect(english.recognisedNames.has('jaylen')).toBe(true);
    expect(relate(english, spanish).relation).toBe('duplicate');
    // Recognised names only tie: one that only one side has does not make two facts dispute.
    const procedure = entryFacts('Print export from InDesign: preset "Hahn PDF/X-4", 3 mm bleed, crop marks on.');
    const supplier = entryFacts('Druckerei Hahn is our printer; they also bind.');
    const other = entryFacts('We print at Druckerei Hahn.');
    recogniseNames([procedure, supplier, other]);
    expect(supplier.names.has('druckerei')).toBe(false);
    expect(relate(supplier, procedure).relation).toBe('unrelated');
  });

  it('two facts that share only a room and differ in names are two facts, unless one announces a change to the other', () => {
    const teaching = entryFacts('I teach Physics (periods 1 and 3) and Astronomy (period 5) in room 305.');
    const choir = entryFacts('CHOIR MOVED: choir now rehearses in 305 (my room) starting today, still Mon/Wed 4:00–6:00. 112 is getting the new pianos.');
    expect(relate(choir, teaching).relation).toBe('unrelated');
    expect(relate(choir, entryFacts('Choir (the Northside Larks) rehearses Mon/Wed 4:00–6:00 in room 112.')).relation).toBe('same-attribute');
  });

  it('a change that names the other entry\'s identifier is about the same thing, whatever it is called; a bare number ties nothing', () => {
    const pager = entryFacts('Rapid response on the ward = pager 4-7777, they show up in ~5 min');
    expect(relate(entryFacts('RRT is 4-2000 now (switchboard change), 4-7777 is dead as of today'), pager)).toMatchObject({ relation: 'same-attribute', byValue: true });
    // Neither announces a change: sharing the pager number alone is not a new value for one subject.
    expect(relate(entryFacts('The porters carry pager 4-7777 at night too'), pager).relation).not.toBe('same-attribute');
    // "100" in two unrelated lines, one announcing a change: not the same subject.
    expect(relate(entryFacts('OTA train moves to weekly: every Tuesday, still staged 5 → 25 → 100 %.'), entryFacts('DVT split agreed: 150 units total → 100 beta, 30 certification, 20 reliability.')).relation).toBe('unrelated');
  });

  it('a name the other entry states, denied ("…not Gwen"), is a changed value', () => {
    const old = entryFacts('Float pool requests go through Gwen, by text, before 17:00');
    expect(relate(entryFacts('float requests now go through the ShiftWise app, not Gwen; Gwen only approves after'), old)).toMatchObject({ relation: 'same-attribute', byValue: true });
  });

  it('weekdays and clock times are values: "Tuesday" and "Wednesday" dispute, "5pm" is 17:00, a change of time is a change', () => {
    expect(relate(entryFacts('Ravi says the recycling bins go out on Wednesday night.'), entryFacts('Recycling bins go out on Tuesday night, per the building manager.'))).toMatchObject({ relation: 'same-attribute', byValue: true });
    expect(entryFacts('Call the Hendersons after 5pm only.').values).toContain('17:00');
    expect(entryFacts('The nightly job runs at 09:30.').values).toContain('9:30');
    expect(relate(entryFacts('The print shop closes at 5pm on weekdays, says Mo.'), entryFacts('The print shop closes at 4:30 on weekdays.'))).toMatchObject({ relation: 'same-attribute', byValue: true });
    expect(relate(entryFacts('Standup moved to 10am, still Mondays.'), entryFacts('Standup is at 9:30 every Monday in the small room.')).relation).toBe('same-attribute');
    // "5 pm" and "17:00" are one time: a restatement.
    expect(relate(entryFacts('The print shop closes at 17:00 on weekdays.'), entryFacts('The print shop closes at 5 pm on weekdays.')).relation).toBe('duplicate');
    // Short forms only when capitalised: "sat in on" is not Saturday.
    expect(entryFacts('I sat in on the design review.').values).not.toContain('sat');
    expect(entryFacts('Gym B is ours on Sat mornings.').values).toContain('sat');
  });

  it('a change told as "starting Monday", "effective immediately", "X is the new Y", "took over" or "no more" announces a change; "no more than" and a shared "Decision:" label do not', () => {
    const owner = entryFacts('Supplier invoices are approved by Marta in finance.');
    // "Marta" is a name, though "Mar" is a month.
    expect(owner.names.has('marta')).toBe(true);
    for (const changed of ['Starting Monday supplier invoices are approved by Joel in finance.', 'Effective immediately, supplier invoices are approved by Joel.']) {
      expect(entryFacts(changed).announcesChange).toBe(true);
      expect(relate(entryFacts(changed), owner).relation).toBe('same-attribute');
    }
    for (const changed of ['Joel is the new approver for supplier invoices in finance.', 'Joel took over approving supplier invoices from Marta.', 'We reverted to the old invoice template.']) {
      expect(entryFacts(changed).announcesChange).toBe(true);
    }
    expect(entryFacts('Keep backups for no more than 30 days.').announcesChange).toBe(false);
    expect(entryFacts('Decision: batch jobs go through the queue kestrel-batches, no more cron on the bastion.').announcesChange).toBe(true);
    // Two decisions about different things share the label, not a subject.
    expect(
      relate(entryFacts('Decision: batch jobs go through the queue kestrel-batches, no more cron on the bastion.'), entryFacts('Decision: every batch gets an idempotency key `batch_id:attempt` in the ledger_batches table.')).relation,
    ).toBe('unrelated');
  });

  it('two notes of one day that give the same task different frequencies are queued, not both written', async () => {
    const { service, clock } = await setup({
      // A workspace with some memory already: how rare a shared word is depends on the entries around it.
      'MEMORY.md': '# Long-Term Memory\n\n- The chem stockroom is behind the back door of the lab.\n- Fire drills are announced by the front office.\n- Lab coats hang in the cupboard by the sink.\n- The safety binder lives on the shelf by the door.\n',
      'memory/2026-11-28.md': '# 2026-11-28\n\n- per the safety binder: the eyewash station in the lab gets flushed weekly, by the teacher\n- Dale says eyewash flushes are monthly and facilities does them, not us\n',
    });
    await recallOver(service, clock, [
      { query: 'eyewash flush', daysAgo: 1 },
      { query: 'how often eyewash flushed', daysAgo: 0 },
    ]);
    const run = await dream(service, { thresholds: OPEN_GATES });
    expect(run.contradictions).toHaveLength(1);
    expect(read('MEMORY.md')).not.toContain('eyewash');
  });

  it('a note that moves a weekly slot to another day supersedes the old entry; the same day of two sources is queued', async () => {
    const bins = '- Recycling bins go out on Tuesday night; the caretaker locks the bin store at 22:00.';
    const { service, clock } = await setup({
      'MEMORY.md': `# Long-Term Memory\n\n## Home\n${bins}\n- The boiler is serviced by Kessler Heating.\n- The building manager is Ravi Anand.\n`,
      'memory/2026-11-20.md': '# 2026-11-20\n\n- Recycling bins now go out on Thursday night, the collection day changed.\n',
      'memory/2026-11-27.md': '# 2026-11-27\n\n- per the council leaflet: garden waste is collected on Monday mornings\n- Ravi says garden waste is collected on Friday mornings\n',
    });
    await recallOver(service, clock, [
      { query: 'recycling bins night', daysAgo: 2 },
      { query: 'which night do bins go out', daysAgo: 1 },
      { query: 'garden waste collected', daysAgo: 1 },
      { query: 'garden waste day', daysAgo: 0 },
    ]);
    const run = await dream(service, { thresholds: OPEN_GATES });
    const memory = read('MEMORY.md');
    expect(memory).toContain(`${bins} <!-- status: superseded -->`);
    expect(memory).toContain('- Recycling bins now go out on Thursday night');
    expect(run.contradictions).toHaveLength(1);
    expect(memory).not.toContain('garden waste');
  });

  it('MEMORY.md at its budget: superseded and expired entries retire first, then promotions are held with the reason', async () => {
    const retired = [
      '- The staging database was ledgerd-old on port 5400. Source: memory/2026-10-01.md#L3-L3 <!-- status: superseded -->',
      '- Priya is on holiday Nov 2–6; Marco approves deploys meanwhile. Source: memory/2026-11-01.md#L4-L4',
    ];
    const filler = (length: number) => {
      const lines: string[] = [];
      for (let i = 0; lines.join('\n').length < length; i++) lines.push(`- Hand-written fact ${i} about the garden and its plants.`);
      return lines.join('\n');
    };
    const head = '# Long-Term Memory\n\n## Garden\n';
    const full = (body: string) => `${head}${body}\n`;
    const withRetired = full(`${retired.join('\n')}\n${filler(9_950 - head.length - retired.join('\n').length)}`);
    const { service, clock } = await setup({
      'MEMORY.md': withRetired,
      'memory/2026-11-28.md': '# 2026-11-28\n\n- The invoice worker runs on port 7001 behind nginx.\n',
    });
    await recallOver(service, clock, [{ query: 'invoice worker port', daysAgo: 1 }, { query: 'which port invoice worker nginx', daysAgo: 0 }]);
    const run = await dream(service, { thresholds: OPEN_GATES });
    const memory = read('MEMORY.md');
    expect(memory.length).toBeLessThanOrEqual(10_000);
    expect(memory).toContain('- The invoice worker runs on port 7001 behind nginx.');
    for (const line of retired) expect(memory).not.toContain(line);
    expect(run.writes.find((w) => w.file === 'MEMORY.md')?.removed).toEqual(retired);
    // Nothing left to retire: the promotion is held, and the reason says so.
    const { service: again } = await reopen(full(filler(9_950 - head.length)));
    const held = await dream(again, { thresholds: OPEN_GATES });
    const write = held.writes.find((w) => w.file === 'MEMORY.md');
    expect(write).toMatchObject({ outcome: 'aborted' });
    expect(write?.reason).toMatch(/10000-character budget, and it holds no superseded or expired entry to retire; they stay staged/);
  });

  it("small talk is held at the kind gate even when recalled; the person's changed terms go to USER.md and supersede the old line there", async () => {
    const { service, clock } = await setup({
      'MEMORY.md': '# Long-Term Memory\n',
      'USER.md': '# User\n\n- My hourly rate is 95 EUR; never go below 80 for agencies. <!-- observed: 2026-11-02 -->\n',
      'memory/2026-11-27.md':
        '# 2026-11-27\n\n- The noodle bar by the station does half-price ramen on Thursdays.\n- Raising my hourly rate to 110 EUR from December; agencies not below 90.\n' +
        '- Saturday print runs move to the Oranienstr shop from now on (the old one is a gym now).\n',
    });
    await recallOver(service, clock, [
      { query: 'noodle bar ramen thursdays', daysAgo: 1 },
      { query: 'half-price ramen station', daysAgo: 0 },
      { query: 'hourly rate agencies', daysAgo: 1 },
      { query: 'my hourly rate EUR', daysAgo: 0 },
      { query: 'saturday print runs shop', daysAgo: 1 },
      { query: 'where do print runs go oranienstr', daysAgo: 0 },
    ]);
    const run = await dream(service, { thresholds: OPEN_GATES });
    const ramen = run.candidates.find((c) => c.key === 'memory/2026-11-27.md:3:3');
    expect(ramen?.gates.find((g) => g.gate === 'kind')).toMatchObject({ passed: false });
    expect(ramen?.gates.find((g) => g.gate === 'kind')?.detail).toContain('everyday small talk');
    expect(read('MEMORY.md')).not.toContain('ramen');
    // A small-talk word in a bracketed aside does not make the line small talk.
    expect(read('MEMORY.md')).toContain('Saturday print runs move to the Oranienstr shop from now on');
    expect(read('MEMORY.md')).not.toContain('110 EUR');
    const user = read('USER.md');
    expect(user).toContain('Raising my hourly rate to 110 EUR');
    expect(user).toMatch(/My hourly rate is 95 EUR.*status: superseded/);
  });

  it("a change to the person's rule announced without naming anyone goes to USER.md and supersedes the rule there; someone else's change stays in MEMORY.md", async () => {
    const { service, clock } = await setup({
      'MEMORY.md': '# Long-Term Memory\n\n- The office opens at 8:00.\n- The wiki lives on Confluence.\n',
      'USER.md': '# User\n\n- Always keep pull requests under 400 lines; split otherwise. <!-- observed: 2026-11-02 -->\n- Always answer client mail within one working day. <!-- observed: 2026-11-02 -->\n',
      'memory/2026-11-27.md':
        '# 2026-11-27\n\n- Pull requests up to 700 lines are fine now when most of the diff is generated code.\n' +
        '- Orbis now answers client mail within two working days, per Dana.\n',
    });
    await recallOver(service, clock, [
      { query: 'pull request size lines', daysAgo: 1 },
      { query: 'how many lines pull requests', daysAgo: 0 },
      { query: 'client mail answer days', daysAgo: 1 },
      { query: 'orbis client mail', daysAgo: 0 },
    ]);
    await dream(service, { thresholds: OPEN_GATES });
    const user = read('USER.md');
    expect(user).toMatch(/under 400 lines.*status: superseded/);
    expect(user).toContain('Pull requests up to 700 lines are fine now');
    expect(read('MEMORY.md')).not.toContain('700 lines');
    // Orbis's change names Orbis: a fact about them, in MEMORY.md; the person's own rule stands.
    expect(read('MEMORY.md')).toContain('Orbis now answers client mail');
    expect(user).toMatch(/within one working day\. <!-- observed: 2026-11-02 -->\n/);
  });
});

/** The same notes and recall with a different MEMORY.md, in a fresh workspace. */
async function reopen(memory: string) {
  const { service, clock } = await setup({ 'MEMORY.md': memory, 'memory/2026-11-28.md': '# 2026-11-28\n\n- The invoice worker runs on port 7001 behind nginx.\n' });
  await recallOver(service, clock, [{ query: 'invoice worker port', daysAgo: 1 }, { query: 'which port invoice worker nginx', daysAgo: 0 }]);
  return { service };
}

describe('judgment: notes that did not pass yet still order the facts', () => {
  const BACKUP_OLD = '- The nightly backup of the ledger runs at 02:00 on backup-01 with restic, kept 14 days.';
  const BACKUP_NEW = '- Nightly ledger backup moves to 04:30 on backup-01, still kept 14 days.';

  it('an older fact is not written while a newer note that changes it waits at the gates; once that note passes it is written', async () => {
    const { service, clock } = await setup({
      'MEMORY.md': '# Long-Term Memory\n',
      'memory/2026-11-20.md': `# 2026-11-20\n\n${BACKUP_OLD}\n`,
      'memory/2026-11-27.md': `# 2026-11-27\n\n${BACKUP_NEW}\n`,
    });
    await recallOver(service, clock, [
      // Asked about restic, a word only the older note has: the newer one is recalled less.
      { query: 'restic ledger backup', daysAgo: 3 },
      { query: 'when does restic run', daysAgo: 2 },
      { query: 'restic schedule', daysAgo: 1 },
    ]);
    const gates = { minScore: 0, minRecallCount: 3, minUniqueQueries: 1 };
    const run = await dream(service, { thresholds: gates });
    const older = run.candidates.find((c) => c.key === 'memory/2026-11-20.md:3:3');
    const newer = run.candidates.find((c) => c.key === 'memory/2026-11-27.md:3:3');
    // The premise: the older passed every gate, the newer did not (it was recalled less).
    expect(older?.gates.filter((g) => g.gate !== 'judgment').every((g) => g.passed)).toBe(true);
    expect(newer === undefined || newer.outcome !== 'promoted').toBe(true);
    expect(older?.outcome).toBe('not-written');
    expect(older?.gates.find((g) => g.gate === 'judgment')?.detail).toContain('a newer note says otherwise');
    expect(read('MEMORY.md')).not.toContain('02:00');

    clock.advanceDays(1);
    await recallOver(service, clock, [
      { query: 'ledger backup 04:30', daysAgo: 0 },
      { query: 'backup moves 04:30', daysAgo: 0 },
      { query: 'nightly backup 04:30 backup-01', daysAgo: 0 },
    ]);
    await dream(service, { thresholds: gates });
    expect(read('MEMORY.md')).toContain('Nightly ledger backup moves to 04:30');
    expect(read('MEMORY.md')).not.toContain('02:00');
  });

  it('a claim disputed by a note of the same day is queued even when only it passed the gates, and nothing is written', async () => {
    const { service, clock } = await setup({
      'MEMORY.md': '# Long-Term Memory\n',
      'memory/2026-11-28.md': '# 2026-11-28\n\n- The runbook says the payments queue listens on port 5672.\n- Omar says the payments queue is on port 5673.\n',
    });
    await recallOver(service, clock, [
      { query: 'runbook payments queue 5672', daysAgo: 2 },
      { query: 'payments queue port 5672', daysAgo: 1 },
      { query: 'runbook queue 5672', daysAgo: 0 },
    ]);
    const run = await dream(service, { thresholds: { minScore: 0, minRecallCount: 3, minUniqueQueries: 1 } });
    expect(run.candidates.find((c) => c.key === 'memory/2026-11-28.md:4:4')?.outcome).not.toBe('promoted');
    expect(run.contradictions).toHaveLength(1);
    expect(run.contradictions?.[0]?.reason).toMatch(/5672|5673/);
    expect(read('MEMORY.md')).not.toContain('payments queue');
    expect((await service.invoke('dream.conflicts', { status: 'open' })).conflicts).toHaveLength(1);
  });
});

describe('judgment: the clock going backwards between two sweeps', () => {
  it('supersession follows the notes\' dates, not the sweep times: a sweep with the clock set back three days never writes the older fact over the newer', async () => {
    const { service, clock } = await setup({
      'MEMORY.md': '# Long-Term Memory\n',
      'memory/2026-11-20.md': '# 2026-11-20\n\n- The billing worker listens on port 7100 on bill-01.\n',
      'memory/2026-11-27.md': '# 2026-11-27\n\n- The billing worker moved: now port 7200 on bill-02.\n',
    });
    const newerRecalls = [
      { query: 'billing worker port', daysAgo: 1 },
      { query: 'billing worker bill-02 7200', daysAgo: 0 },
    ];
    await recallOver(service, clock, newerRecalls);
    await dream(service, { thresholds: OPEN_GATES });
    const afterFirst = read('MEMORY.md');
    expect(afterFirst).toContain('now port 7200 on bill-02');
    expect(afterFirst).not.toContain('7100');

    clock.set(AT - 3 * 86_400_000); // the machine's clock set back three days, before the newer note's day
    await recallOver(service, clock, [
      { query: 'billing worker bill-01 7100', daysAgo: 0 },
      { query: 'port 7100 billing', daysAgo: 0 },
    ]);
    const second = await dream(service, { thresholds: OPEN_GATES });
    expect(['ok', 'nothing-to-do']).toContain(second.status);
    const older = second.candidates.find((c) => c.key === 'memory/2026-11-20.md:3:3');
    expect(older?.outcome).toBe('not-written');
    expect(older?.gates.find((g) => g.gate === 'judgment')?.detail).toContain('superseded by the newer');
    expect(read('MEMORY.md')).toContain('now port 7200 on bill-02');
    expect(read('MEMORY.md')).not.toContain('7100');
    expect(read('MEMORY.md')).not.toContain('status: superseded');
  });
});
