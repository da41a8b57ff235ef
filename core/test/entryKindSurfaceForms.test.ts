import { describe, expect, it } from 'vitest';
import { classifyEntry } from '../src/workspace/entryKind.js';
import { imperativeKindOf } from '../src/workspace/imperativeLines.js';

// Lines written for these tests (not taken from the kind benchmark or the curation folds).
const NOTE_DAY = '2026-03-09'; // a Monday

const kindOf = (line: string): string => classifyEntry(line, NOTE_DAY).kind;

describe('tasks in the forms people write them', () => {
  it.each([
    '- need to defrost the staff fridge',
    '- Remember to renew the parking permit.',
    "- don't forget the projector cable for the talk",
    '- gotta reply to the landlord',
    '- follow up with Yusuf about the quote',
    '- waiting on Finance for the cost centre',
    '- pending: sign-off from the safety officer',
    '- [] pay the courier',
    '- [-] cancelled: order the banners',
    '- ( ) ring the school about the trip form',
    '- ☐ collect the keys from Hanne',
    '- @Yusuf please send me the floor plan',
    '- @me: tidy the shared drive',
    '- Yusuf -> fix the broken link in the footer',
    '- Update the price list on the website.',
    '- Get a second opinion on the roof.',
    '- Re-run the migration on the copy first.',
    '- I should email the auditors this week.',
    '- Must chase the signed lease.',
    '- Will need to replace the router eventually.',
    '- To do: tidy the shared drive',
  ])('%s → task', (line) => expect(kindOf(line)).toBe('task'));

  it('an order that is a standing rule of the person is a preference, not an errand', () => {
    expect(kindOf('- Keep meeting notes under one page.')).toBe('preference');
    expect(kindOf('- Use metric units in every report.')).toBe('preference');
    expect(kindOf('- Send me the weekly numbers every Monday, not daily.')).toBe('preference');
    expect(kindOf('- Call me Hanne, not Johanna.')).toBe('preference');
    expect(kindOf('- No meetings during lunch.')).toBe('preference');
    expect(kindOf('- Fish over Zsh for me.')).toBe('preference');
  });

  it('a verb that is also a noun is an order only before an object', () => {
    expect(imperativeKindOf('Review the contract draft')).toMatchObject({ kind: 'errand', verb: 'Review' });
    expect(imperativeKindOf('Review happens on Fridays with the whole team')).toBeNull();
    expect(imperativeKindOf('Email is the best way to reach the auditors')).toBeNull();
    expect(imperativeKindOf('Order numbers start with ORD-')).toBeNull();
    expect(imperativeKindOf('Use of personal laptops is not allowed')).toBeNull();
    expect(kindOf('- Email is the best way to reach the auditors.')).toBe('fact');
    expect(kindOf('- Release notes live in the docs folder.')).toBe('fact');
  });
});

describe('questions without a question mark', () => {
  it.each([
    '- wondering whether the hall has a ramp',
    '- not sure if the insurance covers glass',
    '- TBD: who keeps the spare keys',
    '- I wonder if the courier works Saturdays',
    '- curious whether the grant can pay for laptops',
    '- Question for Hanne: do we keep the old logo',
    '- To be decided: where the summer party is',
    '- undecided on whether to renew the lease',
    '- any idea why the printer jams on A3',
    '- Is Yusuf coming to the workshop',
  ])('%s → question', (line) => expect(kindOf(line)).toBe('question'));

  it('"Should probably…" is an intention, not a question; "Was great" is not a question', () => {
    expect(kindOf('- Should probably email the landlord about the boiler.')).toBe('task');
    expect(kindOf('- Should we move the party to June')).toBe('question');
    expect(kindOf('- Was great to see the whole team in one room.')).not.toBe('question');
  });
});

describe('events told in many ways', () => {
  it.each([
    '- Met with the auditors about the stock count.',
    '- Had a call with Yusuf about the roof.',
    '- Demo went smoothly, two follow-up questions.',
    '- Yesterday we moved the archive boxes to the basement.',
    '- Design review: walked through the new signage, nothing agreed.',
    '- Attendees: Hanne, Yusuf, Priit.',
    '- The open day was busy, about 60 visitors.',
    '- The power cut this morning lasted an hour.',
    '- Long budget meeting, no conclusions.',
    '- Rode the new tram line to the depot.',
    '- Opening of the new wing today, speeches and cake.',
  ])('%s → event', (line) => expect(kindOf(line)).toBe('event'));

  it('a schedule or a change made for good is not a one-off happening', () => {
    expect(kindOf('- The weekly sync is every Tuesday at 10.')).toBe('fact');
    expect(kindOf('- Standup moved to 9:30 from next week on.')).not.toBe('event');
    expect(kindOf('- Meeting room Ostsee has the only whiteboard.')).toBe('fact');
  });
});

describe('the person\'s own way of working, labelled or reversed', () => {
  it.each([
    ['- me: report at the bedside, never at the station', 'preference'],
    ['- me: I taste every sauce before service, no exceptions', 'preference'],
    ['- changed my mind on kitchen music: fine during prep, off once the first ticket prints', 'preference'],
    // An errand labelled for the person is still an errand.
    ['- me: email Gwen the PTO request', 'task'],
    ['- → me: get Aisha to confirm the slot in writing', 'task'],
  ])('%s → %s', (line, kind) => expect(classifyEntry(line, NOTE_DAY).kind).toBe(kind));
});

describe('past participles that are not a happening', () => {
  it.each([
    // An accented letter ends no word: "lunedì" is not the past verb "luned".
    ['- Chiara: il brodo si fa il lunedì, sempre, e si congela in porzioni da 2 litri.', 'fact'],
    // After a determiner a participle is an adjective; "no X for Y" is a rule.
    ['- no comped desserts for food writers. they pay like everyone, period.', 'preference'],
    ['- Lena presented the roadmap to the board', 'event'],
  ])('%s → %s', (line, kind) => expect(classifyEntry(line, NOTE_DAY).kind).toBe(kind));
});

describe('a happening told in a later clause', () => {
  it.each([
    ['- Press check at the print shop for the cover, colours matched.', 'event'],
    ['- mock code in room 514 at 02:00, compressions were good, airway was slow', 'event'],
    ['- scrimmage vs. Verona after school, we won 2 of 3', 'event'],
    // A definition or an identifier keeps its fact, whatever anecdote follows; "won't" is not "won".
    ['- gas shutoff for the line = behind the mop sink, red handle. showed Marco', 'fact'],
    ['- Toast support line 617-555-0199, they picked up in 2 min on a Saturday', 'fact'],
    ['- no more than 2 travelers on any one night, she won\'t approve a 3rd', 'fact'],
  ])('%s → %s', (line, kind) => expect(classifyEntry(line, NOTE_DAY).kind).toBe(kind));
});

describe('time-bounded lines', () => {
  it.each([
    ['- Priit is on call until Friday.', '2026-03-13'],
    ['- The gym is closed this week.', '2026-03-15'],
    ['- Price freeze through Mar 20.', '2026-03-20'],
    ['- Hanne is out of office until Mar 18.', '2026-03-18'],
    ['- The voucher expires Mar 31.', '2026-03-31'],
  ])('%s holds until %s', (line, until) => expect(classifyEntry(line, NOTE_DAY)).toMatchObject({ kind: 'time-bounded', validUntil: until }));

  it.each([
    '- Temporary: invoices go out from the old address.',
    '- For the next two sprints, Priit joins the mobile team.',
    '- While the lift is broken, deliveries use the side door.',
    '- For now the backups go to the USB disk.',
  ])('%s is time-bounded with no readable end (never promoted as lasting)', (line) => {
    expect(classifyEntry(line, NOTE_DAY)).toMatchObject({ kind: 'time-bounded', validUntil: null });
  });
});

describe('bad input: other languages and scripts', () => {
  // Statements in other languages and scripts: none of the English cues apply, so each is a plain fact.
  it.each([
    '- Η αποθήκη ανοίγει στις 7 το πρωί.',
    '- Склад открывается в 7 утра, ключи у Ханне.',
    '- 倉庫は朝7時に開きます。鍵はハンネが持っています。',
    '- 仓库早上七点开门。',
    '- 창고는 오전 7시에 엽니다.',
    '- המחסן נפתח בשבע בבוקר.',
    '- المستودع يفتح الساعة السابعة صباحا.',
    '- गोदाम सुबह सात बजे खुलता है।',
    '- คลังสินค้าเปิดเจ็ดโมงเช้า',
    '- Kho mở cửa lúc 7 giờ sáng.',
    '- Varasto aukeaa kello seitsemän.',
    '- Magazyn otwiera się o 7 rano.',
  ])('%s → fact', (line) => expect(kindOf(line)).toBe('fact'));

  it('odd text never throws and still gets a kind', () => {
    const odd = [
      '', '-', '- ', '- [ ]', '- ?', '- @', '- ->', '- → :', '- 🚀🚀🚀', '- \u200f\u202e\u202c', '- \ud800 lone surrogate',
      `- ${'ab '.repeat(5_000)}`, `- ${'until '.repeat(500)}Friday`, '- \u0000\u0007 control', '- <!-- kind: -->', '- <!-- kind: task',
      '- 12/13/2026 – 99/99', '- until Feb 31', '- Nov 40–41',
    ];
    for (const line of odd) {
      const result = classifyEntry(line, NOTE_DAY);
      expect(['fact', 'preference', 'decision', 'procedure', 'event', 'task', 'question', 'time-bounded']).toContain(result.kind);
      expect(classifyEntry(line, null).kind).toBe(result.kind === 'time-bounded' ? 'time-bounded' : result.kind);
    }
  });
});

describe('terser voices and more date forms', () => {
  it.each([
    ['- can someone fetch the ladder from the shed', 'task'],
    ['- pls someone empty the dishwasher', 'task'],
    ['- Priit: please renew the parking permits', 'task'],
    ['- by Monday: send the minutes to the board', 'task'],
    ['- note to self: back up the phone', 'task'],
    ['- TODO(hanne): rename the shared folders', 'task'],
    ['- the signage needs replacing', 'task'],
    ['- rebook the meeting room for March', 'task'],
    ['- idk if the hall has parking', 'question'],
    ["- what's the budget for the party", 'question'],
    ['- Q for Yusuf: can we borrow the van', 'question'],
    ["- Hanne's question: do we need a permit", 'question'],
    ['- any chance the courier comes earlier', 'question'],
    ["- I'd like invoices as PDF, not Word.", 'preference'],
    ['- Remind me two days before, not on the day.', 'preference'],
    ['- My rule: no calls before 10.', 'preference'],
    ['- Picked Hetzner over OVH for the backups.', 'decision'],
    ['- Consensus was to keep the Monday sync.', 'decision'],
    ['- Refunds: check the receipt, then refund, then log it.', 'procedure'],
    ['- Yusuf presented the budget to the members.', 'event'],
    ['- The courier came late and lost a parcel.', 'event'],
    ['- Big thanks to Priit for the cake.', 'event'],
    ['- The Jenkins box was replaced by hosted runners.', 'fact'],
    ['- Test rigs are in lab B; rig 5 is broken and labelled so.', 'fact'],
  ])('%s → %s', (line, kind) => expect(kindOf(line)).toBe(kind));

  it.each([
    ['- The depot is closed till 20/3.', '2026-03-20'],
    ['- Quote valid until 15.04.2026.', '2026-04-15'],
    ['- Short shifts through end of March.', '2026-03-31'],
    ['- Spring hours apply until the 21st.', '2026-03-21'],
    ['- Workshop Tue–Thu, no calls.', '2026-03-12'],
    ['- Priit is away Mon–Wed next week.', '2026-03-18'],
    ['- Dentist on Friday at 8, in late.', '2026-03-13'],
    ['- In Vienna today and tomorrow.', '2026-03-10'],
    ['- The intern stays until the end of the year.', '2026-12-31'],
  ])('%s holds until %s', (line, until) => expect(classifyEntry(line, NOTE_DAY)).toMatchObject({ kind: 'time-bounded', validUntil: until }));

  it('a range of weekdays with no week named, nobody away and no occasion is a weekly schedule, not an end', () => {
    expect(classifyEntry('- Rachel Kim = night house supervisor Sun–Wed, cell 918-555-0142', NOTE_DAY)).toMatchObject({ kind: 'fact', validUntil: null });
    expect(classifyEntry('- Bea = new dishwasher, Thu–Sun', NOTE_DAY).kind).toBe('fact');
    expect(classifyEntry('- Dana is off Mon–Wed.', NOTE_DAY)).toMatchObject({ kind: 'time-bounded', validUntil: '2026-03-11' });
    expect(classifyEntry('- Rhys off Mon–Wed, Ffion covers', NOTE_DAY)).toMatchObject({ kind: 'time-bounded', validUntil: '2026-03-11' });
  });

  it('a weekday with its date names the one day it happens; an end a few words after "until" is read at its date', () => {
    expect(classifyEntry('- Epic downtime Sun 3/15 01:00–05:00, paper MARs from the downtime box', NOTE_DAY)).toMatchObject({ kind: 'time-bounded', validUntil: '2026-03-15' });
    expect(classifyEntry('- AP Chem exam = Thu May 6th, 8am, in the library', NOTE_DAY)).toMatchObject({ kind: 'time-bounded', validUntil: '2026-05-06' });
    expect(classifyEntry('- dish machine down, rental unit until the tech comes 3/14', NOTE_DAY)).toMatchObject({ kind: 'time-bounded', validUntil: '2026-03-14' });
    expect(classifyEntry('- Priit covers the desk until Sofia is back on Mar 20', NOTE_DAY)).toMatchObject({ kind: 'time-bounded', validUntil: '2026-03-20' });
  });

  it('a temporary state with no end is time-bounded without a validity', () => {
    expect(classifyEntry('- Until the new printer arrives, print at the library.', NOTE_DAY)).toMatchObject({ kind: 'time-bounded', validUntil: null });
    expect(classifyEntry('- The back door is locked during the renovation.', NOTE_DAY)).toMatchObject({ kind: 'time-bounded', validUntil: null });
    expect(classifyEntry('- Hanne is in hospital; Priit signs the orders.', NOTE_DAY)).toMatchObject({ kind: 'time-bounded', validUntil: null });
  });
});

describe('formatting and labels around the words', () => {
  it.each([
    ['- **TODO** rotate the door codes', 'task'],
    ['- 🔲 buy printer toner', 'task'],
    ['- Reminder to self — renew the hall insurance', 'task'],
    ['- Need someone to lock up on Friday.', 'task'],
    ['- Go through the lost property box with Priit.', 'task'],
    ['- Write to the landlord about the damp.', 'task'],
    ['- Would a bigger van fix the Saturday backlog', 'question'],
    ['- The board confirmed: the shop opens on Sundays from May.', 'decision'],
    ["- After the pilot we're keeping the paper rota.", 'decision'],
    ['- Decaf only, please.', 'preference'],
    ['- Reminder: the alarm code is the year the hall was built.', 'fact'],
    ['- Note to self: the spare keys are in the blue tin.', 'fact'],
  ])('%s → %s', (line, kind) => expect(kindOf(line)).toBe(kind));
});

describe('durable lines that must not be read as a happening or a rule', () => {
  it.each([
    '- We adopted trunk-based development.',
    '- Priit joined the warehouse team in 2025.',
    '- Hanne became the safety officer.',
    '- Ops took over the pager from the developers.',
    '- The old server was retired by Yusuf.',
    '- The café roasts its own beans and sells them by the kilo.',
  ])('%s → fact', (line) => expect(kindOf(line)).toBe('fact'));
});
