import { describe, expect, it } from 'vitest';
import { classifyEntry } from '../src/workspace/entryKind.js';

const NOTE_DAY = '2026-10-26'; // a Monday

describe('entry kinds from wording', () => {
  it.each([
    ['- [ ] renew the TLS certificate on ares.internal (expires Oct 30!)', 'task'],
    ['- [x] rotated the backup keys', 'task'],
    ['- ask Dana about resetting the staging database', 'task'],
    ['- book flights for KubeCon', 'task'],
    ['- TODO: write the Acme go-live checklist', 'task'],
    ['- Need to move the cron job off the old box', 'task'],
    ['- Why does the nightly reconciliation job spike at 02:00? Need to check.', 'task'],
    ['- Should we move the docs to the wiki', 'question'],
    ['- Open question: who owns the billing alerts', 'question'],
    ['- Is the replica lag alert still flapping?', 'question'],
    ['- Prefer Vitest over Jest for new packages.', 'preference'],
    ['- Always run the migrations in a transaction.', 'preference'],
    ['- I prefer short answers with the command first.', 'preference'],
    ['- Priya prefers async standups over calls.', 'fact'],
    ['- We decided to keep Postgres 15 until the spring.', 'decision'],
    ['- Decided to drop the legacy webhook endpoint.', 'decision'],
    ['- To rotate the keys: run kestrel-keys rotate, then restart the gateway.', 'procedure'],
    ['- Lunch with Marek about the tax module', 'event'],
    ['- The staging box is ares.internal, port 8443, behind the corp VPN.', 'fact'],
    ['- Deploys now go through ArgoCD.', 'fact'],
    ['- Der Staging-Server läuft auf Port 8443.', 'fact'],
    ['- ステージングサーバーはポート8443です。', 'fact'],
    ['- Released Kestrel 2.4 with the new matcher.', 'event'],
    ['- Standup ran 20 minutes over, mostly about the file format.', 'event'],
    ['- Demo for the retention team went well; they want weekly lists.', 'event'],
  ])('%s → %s', (line, kind) => expect(classifyEntry(line, NOTE_DAY).kind).toBe(kind));

  it.each([
    ['- Priya is on holiday Nov 2–6; Marco approves deploys meanwhile.', '2026-11-06'],
    ['- The trial licence expires Oct 30.', '2026-10-30'],
    ['- The office is closed until Friday.', '2026-10-30'],
    ['- Marco covers on-call this week.', '2026-11-01'],
    ['- The freeze holds until 2026-12-15.', '2026-12-15'],
    ['- Jonas is away until the 3rd of January.', '2027-01-03'],
    ['- The conference discount is valid until end of month.', '2026-10-31'],
    ['- The warehouse trial credits run out on Nov 10.', '2026-11-10'],
  ])('%s is time-bounded until %s', (line, until) => {
    expect(classifyEntry(line, NOTE_DAY)).toMatchObject({ kind: 'time-bounded', validUntil: until });
  });

  it('a kind annotation overrides the wording', () => {
    expect(classifyEntry('- Ask before merging to main. <!-- kind: preference -->', NOTE_DAY).kind).toBe('preference');
    expect(classifyEntry('- The cache is warm. <!-- kind: nonsense -->', NOTE_DAY).kind).toBe('fact');
  });

  it('without a note day a weekday end cannot be read; a dated end still can', () => {
    expect(classifyEntry('- The office is closed until Friday.', null)).toMatchObject({ kind: 'time-bounded', validUntil: null });
    expect(classifyEntry('- The freeze holds until 2026-12-15.', null)).toMatchObject({ kind: 'time-bounded', validUntil: '2026-12-15' });
  });

  it.each([
    // action items handed to someone, in the arrow style of meeting notes
    ['* supplier sync → me: get two more quotes for the hinge', 'task'],
    ['- Gateway timeouts -> Lars: raise the limit on the proxy', 'task'],
    ['- AI: circulate the revised floor plan', 'task'],
    ['- waiting on legal for the NDA', 'task'],
    ['- check whether the nightly export still runs on the old box', 'task'],
    ['- Look into the flaky login test', 'task'],
    // the same errands in other languages
    ['- perguntar à Luísa sobre o frete', 'task'],
    ['- demander à Hugo le devis du transporteur', 'task'],
    // a question first, then a note to self; questions without a question mark
    ['- Does the mobile app cache the tariff table? Ask Mei.', 'question'],
    ['- who signs off the packaging artwork', 'question'],
    ['- is the staging cert renewed already', 'question'],
    ['- how many units failed the drop test', 'question'],
    ['- pourquoi le lot 14 est arrivé en retard', 'question'],
    ['- será que o fornecedor aceita pagamento em 60 dias', 'question'],
    ['- still wondering whether the hinge needs a metal pin', 'question'],
    // what happened, told as a diary line
    ['- Handed the logo files over to the print shop.', 'event'],
    ['- Repotted the office fern.', 'event'],
    ['- Tried the new noodle bar near the station.', 'event'],
    ['- Board dinner, met a recruiter from the agency.', 'event'],
    ['- Billing v4 rolled out to every tenant.', 'event'],
    // …but not the lines that state how things are now
    ['- Moved the build cache to cache-02.corp.internal.', 'fact'],
    ['- Based in Lisbon, two hours behind the client.', 'fact'],
    ['- How to restart the queue: drain it, then restart the worker.', 'procedure'],
    ['- When the build fails on main, revert first and ask later.', 'fact'],
  ])('%s → %s', (line, kind) => expect(classifyEntry(line, NOTE_DAY).kind).toBe(kind));

  it.each([
    ['- Lars is out of office until Nov 4.', '2026-11-04'],
    ['- The vendor portal is down for maintenance today.', '2026-10-26'],
    ['- The tender deadline is Nov 12.', '2026-11-12'],
    ['- La fábrica cierra del 2 al 6 de noviembre.', '2026-11-06'],
    ['- L’usine est fermée du 3 au 7 novembre.', '2026-11-07'],
    ['- A Luísa está de férias até 14 de novembro.', '2026-11-14'],
    ['- The lab is booked 2026-11-02 – 2026-11-06 for the thermal tests.', '2026-11-06'],
  ])('%s is time-bounded until %s', (line, until) => {
    expect(classifyEntry(line, NOTE_DAY)).toMatchObject({ kind: 'time-bounded', validUntil: until });
  });

  it('an absence with no readable end is time-bounded without a validity, so it is never promoted as lasting', () => {
    expect(classifyEntry('- Ravi is on parental leave; Mei approves designs.', NOTE_DAY)).toMatchObject({ kind: 'time-bounded', validUntil: null });
    expect(classifyEntry('- Deploys go through ArgoCD as of today.', NOTE_DAY).kind).toBe('fact');
  });

  // Shapes a second writer used (the curation benchmark's teacher fold): each read as work, a question or a happening before.
  it.each([
    ['- who keeps the spare projector bulbs?? -> Gwen, cupboard 3, top shelf', 'fact'],
    ['- where does the courier drop parcels? → side door, signed for by reception', 'fact'],
    ['- Is the wifi password changing? -> no idea yet', 'question'],
    ['- who owns the gateway now? -> ask Ines', 'task'],
    ['- if the label printer jams -> call Tomas, he has the spare roller', 'procedure'],
    ['- when the VPN drops, restart the client and re-enter the token', 'procedure'],
    ['- Halima wants invoices emailed to her by Friday noon, not posted', 'fact'],
    ['- Thursday mornings = my writing time -> don\'t book calls then', 'preference'],
    ['- support tickets: I reply within a day. Never on Sundays.', 'preference'],
    ['- Chemicals -> locked cabinet by the sink. Never store acids with bases.', 'fact'],
    ['- Builds moved from Jenkins to GitHub Actions; first green run today.', 'fact'],
    ['- Settled it with Noor: one pricing tier at launch.', 'decision'],
    ['- Sat rehearsals in the main hall, 10 to 1.', 'fact'],
    ['- Sat in on the finance review, nothing for us.', 'event'],
    ['- Bake-off in the staff room: my lemon tart came 3rd, lost to the brownies', 'event'],
    ['- fire drill during period 4, lost half the practical', 'event'],
    // The day's occasion named first, then what it held; a day that recurs on a weekday is a fact.
    ['- stocktake day, whole crew in at 7', 'event'],
    ['- quiz night w/ the Year 9s (Feb 3rd)', 'event'],
    ['- open house night 2: 40 families, ran out of name tags', 'event'],
    ['- recycling day: Thursdays, crates out by 7', 'fact'],
    ['- My day rate is 640 EUR for print work.', 'fact'],
  ])('%s is a %s', (line, kind) => {
    expect(classifyEntry(line, NOTE_DAY).kind).toBe(kind);
  });

  it('an end written as an ordinal ("ends Mar 31st") is read', () => {
    expect(classifyEntry('- The analytics trial ends Nov 3rd -> then we decide', NOTE_DAY)).toMatchObject({ kind: 'time-bounded', validUntil: '2026-11-03' });
  });
});
