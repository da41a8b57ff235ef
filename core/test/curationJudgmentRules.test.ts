import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { everydayTalkWord } from '../src/dreaming/phases/everydayTalk.js';
import { entryFacts, recogniseNames } from '../src/dreaming/judgment/entryFacts.js';
import { relate } from '../src/dreaming/judgment/relation.js';
import { classifyEntry } from '../src/workspace/entryKind.js';
import type { TempWorkspace } from './helpers/workspace.js';
import { dream, dreamingWorkspaces, recallOver } from './helpers/dreaming.js';

// Lines written for these tests (not taken from the curation folds or the kind benchmark).
const NOTE_DAY = '2027-02-10'; // a Wednesday
const kindOf = (line: string, day = NOTE_DAY) => classifyEntry(line, day);
const related = (a: string, b: string) => {
  const [fa, fb] = [entryFacts(a), entryFacts(b)];
  recogniseNames([fa, fb]);
  return relate(fa, fb);
};

describe('weekday ranges: a weekly pattern unless the line makes it one span', () => {
  it('a role, opening hours or a working pattern over a weekday range does not end', () => {
    expect(kindOf('- Hollis Park = payroll clerk, in Tue–Fri, desk by the stairs')).toMatchObject({ kind: 'fact', validUntil: null });
    expect(kindOf('- The bakery counter is open Wed–Sat, 7–13, cash only')).toMatchObject({ validUntil: null });
    expect(kindOf('- Farid = weekend porter Fri–Sun, radio channel 4').kind).not.toBe('time-bounded');
  });

  it('an absence, a named week or an occasion over a weekday range is one span that ends', () => {
    expect(kindOf('- Lorna is away Tue–Thu, Kit signs the timesheets')).toMatchObject({ kind: 'time-bounded', validUntil: '2027-02-11' });
    expect(kindOf('- Stocktake Mon–Wed next week, no deliveries')).toMatchObject({ kind: 'time-bounded', validUntil: '2027-02-17' });
    expect(kindOf('- Trade fair Thu–Sat, booth 12')).toMatchObject({ kind: 'time-bounded', validUntil: '2027-02-13' });
  });
});

describe('one dated day named with its weekday, and ends a few words after "until"', () => {
  it('"Sat 2/13" is that day; the weekday tells month-first from day-first', () => {
    expect(kindOf('- Boiler service Sat 2/13 08:00–12:00, heating off in the east wing')).toMatchObject({ kind: 'time-bounded', validUntil: '2027-02-13' });
    expect(kindOf('- Boiler service Sat 13/2 08:00–12:00, heating off')).toMatchObject({ validUntil: '2027-02-13' });
    expect(kindOf('- Regional final = Sun Mar 7th in Leeds, doors 9am')).toMatchObject({ kind: 'time-bounded', validUntil: '2027-03-07' });
  });

  it('a start or a deadline named with a weekday is not an end', () => {
    expect(kindOf('- Starting Mon 2/15 the post room opens at 8').validUntil).toBeNull();
    expect(kindOf('- Timesheets are due by Fri 2/12 each month').validUntil).not.toBe('2027-02-12');
  });

  it('"until the engineer comes 2/18" and "till Thu 2/11" end on the day named', () => {
    expect(kindOf('- Lift B out of order, stairs only until the engineer comes 2/18')).toMatchObject({ kind: 'time-bounded', validUntil: '2027-02-18' });
    expect(kindOf('- Scanner on loan till Thu 2/11, then back to Finance')).toMatchObject({ kind: 'time-bounded', validUntil: '2027-02-11' });
  });
});

describe('the person\'s own lines in other words', () => {
  it('a line labelled "me:" is the person\'s way of working', () => {
    expect(kindOf('- me: I read every contract twice before signing, even the short ones').kind).toBe('preference');
    expect(kindOf('- for me: drafts in the morning, calls after lunch').kind).toBe('preference');
    // "Me" as a word inside a line is not the label.
    expect(kindOf('- Dana sent me the new floor plan').kind).not.toBe('preference');
  });

  it('"changed my mind" about a rule is the person\'s rule', () => {
    expect(kindOf('- changed my mind on invoices: monthly, not per job').kind).toBe('preference');
  });
});

describe('routines under a label are not errands; "no …" opens a rule, not a happening', () => {
  it('an order under a label that recurs is the thing\'s routine', () => {
    expect(kindOf('- grease filters: swap Mon + Thu, or sooner if they drip').kind).not.toBe('task');
    expect(kindOf('- water tank: flush every quarter, log it on the door').kind).not.toBe('task');
    // Without a routine it stays today's errand.
    expect(kindOf('- grease filters: swap them before the inspector comes').kind).toBe('task');
  });

  it('a line opening with "no" is not told as something that happened', () => {
    expect(kindOf('- no discounted tickets for press, they pay like everyone').kind).not.toBe('event');
  });

  it('a past verb is not read inside an accented word ("lunedì" is not "luned")', () => {
    expect(kindOf('- Marta: il pane si fa il lunedì e il giovedì.').kind).not.toBe('event');
  });
});

describe('happenings told in a later clause', () => {
  it('"…, we won 3 of 4", "…; the paperwork went through", "…, everyone woke up" are events', () => {
    expect(kindOf('- quiz night vs. the Foxes, we won 3 of 4').kind).toBe('event');
    expect(kindOf('- Pallets left the depot at 6; the paperwork went through clean').kind).toBe('event');
    expect(kindOf('- evacuation test at 4am, everyone woke up').kind).toBe('event');
    expect(kindOf('- mock inspection on ward 3, handover was good, audit was slow').kind).toBe('event');
  });

  it('a state after a comma, a contraction or a fact naming who confirmed it is not a happening', () => {
    expect(kindOf('- Label printer settings: 4x6 in, 203 dpi, fonts embedded').kind).not.toBe('event');
    expect(kindOf("- Marek's rule: at most 2 temps per shift, he won't sign a 3rd").kind).not.toBe('event');
    expect(kindOf('- Dressings change every 48 h, tissue viability confirmed, pharmacy orders off that').kind).not.toBe('event');
  });
});

describe('questions without a question mark', () => {
  it.each([
    '- How about a shared rota for the weekend cover',
    '- anyone know where the spare van keys went',
    "- can't remember if the alarm code changed in January",
    "- don't know whether Ilse signed the lease",
    '- pondering whether to hire a second driver',
    '- debating whether to close the shop on Mondays',
    '- Kayode asked if nights can swap to weekends',
    '- remains to be seen whether the council approves the sign',
    '- keep the old alarm contract or not',
    '- nginx vs caddy for the intranet',
    '- maybe the fuse, maybe the thermostat',
    '- no clue whether the side gate has a code',
  ])('%s', (line) => expect(kindOf(line).kind).toBe('question'));

  it('a match against an opponent, or a choice with its verdict, is not an open question', () => {
    expect(kindOf('- league game vs. Rovers (pitch 2) on Sat, we won 3-1').kind).not.toBe('question');
    expect(kindOf('- nginx vs caddy: caddy, it renews its own certs').kind).not.toBe('question');
  });
});

describe('small talk: a routine or a measurement is work, whatever it mentions', () => {
  it('a supplier, opening hours or a measured setting is not small talk; a café\'s weekly offer still is', () => {
    expect(everydayTalkWord('- wine: Corran Cellars delivers Thursdays, rep = Bea Moss, min order 3 cases')).toBeNull();
    expect(everydayTalkWord('- dinner service Tue–Sat, 6–11, last orders 10:15')).toBeNull();
    expect(everydayTalkWord('- the lift motor runs at 240 rpm, never swap the gearbox')).toBeNull();
    expect(everydayTalkWord('- The noodle bar on Quay St does half-price on Tuesdays.')).toBe('noodle');
    expect(everydayTalkWord('- Lunch with the team at the new place, the soup was great.')).toBe('lunch');
  });
});

describe('judgment: subjects, denials and measures', () => {
  it('an acronym spelled out by the other ties two entries only beside a shared identifier', () => {
    const old = 'Emergency response team = bleep 2-4411, based on ward 5C';
    expect(related('ERT is 2-5000 now, 2-4411 is retired', old)).toMatchObject({ relation: 'same-attribute', byValue: true });
    // No shared identifier: the letters alone tie nothing.
    expect(related('ERT drills happen on the first Monday', 'Emergency exits are checked by the porter').relation).toBe('unrelated');
  });

  it('"…, not Gwen" denies the name the other entry gives', () => {
    expect(related('leave requests now go through the Rota app, not Gwen; Gwen only signs off after', 'Leave requests go through Gwen, by email, before 15:00')).toMatchObject({ relation: 'same-attribute', byValue: true });
  });

  it('"every shift" and "once a day" are two frequencies of one check', () => {
    expect(related('fridge temps: the kitchen lead says they are logged every shift', 'Odile says the fridge temp log is once a day, mornings only')).toMatchObject({ relation: 'same-attribute', byValue: true });
  });

  it('a reversal ("scratch the…", "changed my mind on…") is about what it reverses, a count inside words included', () => {
    expect(related("scratch the groups-of-4 thing: pairs only from now on for labs", 'Lab work: I want students in groups of 4, mixed ability').relation).toBe('same-attribute');
    expect(related('changed my mind on phone calls: fine before noon, OFF after lunch', 'phone calls: none before 11am, I need quiet for drafting').relation).toBe('same-attribute');
  });

  it('a word shouted for emphasis is not a name', () => {
    expect(entryFacts('music OFF once service starts, ALWAYS').names.size).toBe(0);
    expect([...entryFacts('Renew the NHS login with Omar').names]).toEqual(expect.arrayContaining(['nhs', 'omar']));
  });

  it('every note a reinforced line cites is left out of its values', () => {
    const facts = entryFacts('The depot gate code is 4471. Source: memory/2027-01-04.md#L3-L3, memory/2027-01-20.md#L5-L5');
    expect(facts.values).toEqual(['4471']);
  });
});

describe('judgment in a sweep: a reversed own rule and a twice-reinforced line', () => {
  const open = dreamingWorkspaces();
  const AT = new Date(2027, 1, 20, 3, 0, 0).getTime();
  const OPEN_GATES = { minScore: 0, minRecallCount: 1, minUniqueQueries: 1 };
  let ws: TempWorkspace | null = null;
  const read = (rel: string) => fs.readFileSync(path.join(ws!.root, rel), 'utf8');
  afterEach(() => {
    ws = null;
  });

  it('the person reversing their rule retires the older wording even where it was read as a fact and filed in MEMORY.md', async () => {
    const opened = await open(
      {
        'MEMORY.md': '# Long-Term Memory\n\n## Studio\n- The studio is on the second floor.\n',
        'USER.md': '# User\n\n- I work from Glasgow.\n',
        'memory/2027-02-08.md': '# 2027-02-08\n\n- client proofs: PDF only, one file per round. NO shared folders!!\n',
        'memory/2027-02-15.md': '# 2027-02-15\n\n- changed my mind re: client proofs -> one shared folder per round, comment access for me. no more PDFs.\n',
      },
      AT,
    );
    ws = opened.ws;
    await recallOver(opened.service, opened.clock, [
      { query: 'client proofs format', daysAgo: 2 },
      { query: 'proofs PDF or shared folder', daysAgo: 1 },
      { query: 'how do clients get proofs', daysAgo: 0 },
    ]);
    const run = await dream(opened.service, { thresholds: OPEN_GATES });
    const active = `${read('MEMORY.md')}\n${read('USER.md')}`.split('\n').filter((l) => l.includes('proofs') && !l.includes('status: superseded'));
    expect(active).toHaveLength(1);
    expect(active[0]).toContain('changed my mind');
    expect(run.candidates.find((c) => c.key === 'memory/2027-02-08.md:3:3')?.outcome).not.toBe('promoted');
  });

  it('a newer note that says the fact changed keeps the older fact out even when the newer line reads as a task', async () => {
    const opened = await open(
      {
        'MEMORY.md': '# Long-Term Memory\n\n## Depot\n- The depot is at Unit 4, Harbour Road.\n',
        'memory/2027-02-01.md': '# 2027-02-01\n\n- The courier pickup is at 16:00 from the loading bay.\n',
        'memory/2027-02-08.md': '# 2027-02-08\n\n- Courier pickup moved to 14:00 from now on -> update the warehouse sheet\n',
      },
      AT,
    );
    ws = opened.ws;
    await recallOver(opened.service, opened.clock, [
      { query: 'courier pickup time', daysAgo: 2 },
      { query: 'when does the courier come', daysAgo: 1 },
      { query: 'loading bay courier', daysAgo: 0 },
    ]);
    const run = await dream(opened.service, { thresholds: OPEN_GATES });
    const newer = run.candidates.find((c) => c.key === 'memory/2027-02-08.md:3:3');
    expect(newer?.kind).toBe('task');
    const older = run.candidates.find((c) => c.key === 'memory/2027-02-01.md:3:3');
    expect(older?.outcome).not.toBe('promoted');
    expect(read('MEMORY.md')).not.toContain('16:00');
  });

  it('a restatement of a line two notes already reinforced adds no line', async () => {
    const opened = await open(
      {
        'MEMORY.md': '# Long-Term Memory\n\n## Depot\n- The depot gate code is 4471; the key safe is by the side door. Source: memory/2027-01-04.md#L3-L3, memory/2027-01-20.md#L3-L3\n',
        'memory/2027-02-12.md': '# 2027-02-12\n\n- depot gate code 4471, key safe by the side door\n',
      },
      AT,
    );
    ws = opened.ws;
    await recallOver(opened.service, opened.clock, [
      { query: 'depot gate code', daysAgo: 1 },
      { query: 'gate code 4471', daysAgo: 0 },
    ]);
    const run = await dream(opened.service, { thresholds: OPEN_GATES });
    expect(run.candidates.find((c) => c.key === 'memory/2027-02-12.md:3:3')?.outcome).toBe('duplicate');
    expect(read('MEMORY.md').match(/4471/g)).toHaveLength(1);
  });
});
