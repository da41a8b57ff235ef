/**
 * The blind theme's writer: a different person's journal (paragraphs, first person, its own
 * headings and file layout) stating the same kinds of facts in other words. Written from how
 * people write, not from the extractor's rules, so its figures say how the rules carry over to
 * unseen wording. Labels come from the simulated world, as in generate.ts.
 */
import { Rng } from '../prng.js';
import { World, type GoldEntity, type GoldType, type LabelledWorkspace } from './generate.js';
import type { Theme, ThemePerson } from './themes.js';

const DAYS = 42;
const START = Date.UTC(2026, 9, 5);
const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const LONG_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const SECTIONS = ['Morning', 'Log', '1:1s', 'Thoughts', 'Afternoon', 'Open questions', 'Done today', 'Blockers', 'Misc'];

function iso(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** Sentences with no real thing in them, in this writer's own vocabulary. */
function dayNoise(rng: Rng, day: Date): string {
  const month = LONG_MONTHS[(day.getUTCMonth() + rng.int(3)) % 12]!;
  const weekday = LONG_DAYS[rng.int(7)]!;
  return rng.pick([
    `Gym at 7, then coffee.`,
    `Slept badly. Ordered a standing desk, arrives ${weekday}.`,
    `Weekly review moved to the afternoon.`,
    `Invoice ${rng.range(1000, 9999)} paid.`,
    `Train was ${rng.range(5, 40)} min late again.`,
    `Sprint ${rng.range(10, 30)} demo went fine, nobody asked about the estimates.`,
    `Dentist on the ${rng.range(2, 28)}th of ${month}.`,
    `Booked flights for ${month}.`,
    `Error rate around ${rng.range(1, 9)}.${rng.range(0, 9)}% for most of the morning, then flat.`,
    `Cleared ${rng.range(20, 90)} emails, still ${rng.range(3, 12)} flagged.`,
    `Back-to-back calls from 10:00 to 13:30.`,
    `Wrote the quarterly summary draft; needs numbers.`,
    `Too many alerts overnight, most of them noise.`,
    `Need to renew the certificate before ${month}.`,
  ]);
}

export function generateJournalWorkspace(theme: Theme): LabelledWorkspace {
  const rng = new Rng(theme.seed);
  const world = new World();
  const used = new Set<string>();
  const headings: string[] = [];
  const files = new Map<string, string>();
  const fullName = (p: ThemePerson) => `${p.first} ${p.last}`;
  const sharedFirst = (p: ThemePerson) => theme.people.filter((q) => q.first === p.first).length > 1;

  const owner = new Map(theme.services.map((s, i) => [s, theme.people[(i + 1) % theme.people.length]!]));
  const lead = new Map(theme.services.map((s, i) => [s, theme.people[(i + 3) % theme.people.length]!]));
  const host = new Map(theme.services.map((s, i) => [s, theme.hosts[(i + 1) % theme.hosts.length]!]));
  const uses = new Map(theme.services.map((s, i) => [s, theme.tools[(i + 2) % theme.tools.length]!]));
  const home = new Map(theme.people.map((p, i) => [p, theme.places[(i + 1) % theme.places.length]!]));
  const employer = new Map(theme.people.slice(0, theme.organisations.length).map((p, i) => [p, theme.organisations[i]!]));
  const changes: Array<{ day: number; kind: 'host' | 'owner' | 'tool' | 'home'; what: string | ThemePerson }> = [];
  theme.services.forEach((s, i) => {
    changes.push({ day: 15 + ((i * 4) % 20), kind: 'host', what: s });
    if (i % 2 === 1) changes.push({ day: 19 + ((i * 6) % 17), kind: 'owner', what: s });
    if (i % 2 === 0) changes.push({ day: 21 + ((i * 5) % 14), kind: 'tool', what: s });
  });
  theme.people.slice(1, 4).forEach((p, i) => changes.push({ day: 24 + i * 5, kind: 'home', what: p }));

  for (let d = 0; d < DAYS; d++) {
    const day = new Date(START + d * 86_400_000);
    const date = iso(day);
    const named = new Set<ThemePerson>();
    /** This writer names someone in full once a day, then by first name; handles only in cc lines. */
    const who = (p: ThemePerson): string => {
      used.add(fullName(p));
      if (!named.has(p) || sharedFirst(p)) {
        named.add(p);
        return fullName(p);
      }
      return rng.chance(0.8) ? p.first : fullName(p);
    };
    const n = (x: string) => (used.add(x), x);
    const sentences: string[] = [];

    const facts: Array<() => string> = [];
    for (const s of theme.services) {
      facts.push(() => {
        const p = owner.get(s)!;
        world.state(fullName(p), 'owns', s, date);
        return rng.pick([() => `${who(p)} is the owner of ${n(s)}, so anything about it goes through them.`, () => `${n(s)} belongs to ${who(p)}.`, () => `If ${n(s)} breaks, ${who(p)} owns it.`])();
      });
      facts.push(() => {
        const p = lead.get(s)!;
        world.state(fullName(p), 'leads', s, date);
        return rng.pick([() => `${n(s)} is led by ${who(p)} these days.`, () => `${who(p)} leads the ${n(s)} rewrite.`])();
      });
      facts.push(() => {
        const h = host.get(s)!;
        world.state(s, 'runs_on', h, date);
        return rng.pick([() => `We host ${n(s)} on ${n(h)}.`, () => `${n(s)} is deployed on ${n(h)}, which is why the disk fills up.`, () => `Reminder to self: ${n(s)} lives on ${n(h)}.`])();
      });
      facts.push(() => {
        const t = uses.get(s)!;
        world.state(s, 'uses', t, date);
        return rng.pick([() => `${n(s)} is built on ${n(t)}.`, () => `Under the hood ${n(s)} uses ${n(t)}.`, () => `${n(s)} relies on ${n(t)} for storage.`])();
      });
    }
    theme.services.forEach((s, i) => {
      const other = theme.services[(i + 1) % theme.services.length]!;
      if (i % 2 === 1)
        facts.push(() => {
          world.state(s, 'depends_on', other, date);
          return rng.pick([() => `${n(s)} cannot start without ${n(other)}; it depends on it for tokens.`, () => `Learned the hard way that ${n(s)} depends on ${n(other)}.`])();
        });
    });
    for (const p of theme.people) {
      facts.push(() => {
        const place = home.get(p)!;
        world.state(fullName(p), 'located_in', place, date);
        return rng.pick([() => `${who(p)} lives in ${n(place)}, an hour ahead of me.`, () => `${who(p)} works from ${n(place)} most weeks.`])();
      });
      const org = employer.get(p);
      if (org)
        facts.push(() => {
          world.state(fullName(p), 'member_of', org, date);
          return rng.pick([() => `${who(p)} is employed by ${n(org)}.`, () => `${who(p)} works for ${n(org)} on the vendor side.`])();
        });
      facts.push(() => {
        const t = theme.tools[(theme.people.indexOf(p) + 1) % theme.tools.length]!;
        world.state(fullName(p), 'prefers', t, date);
        return rng.pick([() => `${who(p)} would rather use ${n(t)} for everything.`, () => `${who(p)} prefers ${n(t)}, always has.`])();
      });
      facts.push(() => {
        const s = theme.services[(theme.people.indexOf(p) + 1) % theme.services.length]!;
        world.state(fullName(p), 'works_on', s, date);
        return rng.pick([() => `${who(p)} spent the whole day working on ${n(s)}.`, () => `${who(p)} has been working on ${n(s)} since Tuesday.`])();
      });
    }
    const first = d < 12 ? facts.slice(Math.floor((d * facts.length) / 12), Math.floor(((d + 1) * facts.length) / 12)) : [];
    for (const f of first) sentences.push(f());
    if (d >= 12) for (let i = 0; i < 2; i++) sentences.push(rng.pick(facts)());

    for (const c of changes.filter((x) => x.day === d)) {
      if (c.kind === 'host') {
        const s = c.what as string;
        const from = host.get(s)!;
        const to = theme.hosts[(theme.hosts.indexOf(from) + 1) % theme.hosts.length]!;
        world.end(s, 'runs_on', from, date);
        world.state(s, 'runs_on', to, date);
        host.set(s, to);
        sentences.push(rng.pick([() => `Finally migrated ${n(s)} off ${n(from)} and onto ${n(to)}.`, () => `${n(s)} was moved to ${n(to)} tonight; ${n(from)} can be wiped.`, () => `${n(s)} is hosted on ${n(to)} from today.`])());
      } else if (c.kind === 'owner') {
        const s = c.what as string;
        const from = owner.get(s)!;
        const to = theme.people[(theme.people.indexOf(from) + 2) % theme.people.length]!;
        world.end(fullName(from), 'owns', s, date);
        world.state(fullName(to), 'owns', s, date);
        owner.set(s, to);
        sentences.push(rng.pick([() => `${who(from)} handed ${n(s)} over to ${who(to)}, who owns it now.`, () => `From today ${n(s)} is owned by ${who(to)}.`])());
      } else if (c.kind === 'tool') {
        const s = c.what as string;
        const from = uses.get(s)!;
        const to = theme.tools[(theme.tools.indexOf(from) + 1) % theme.tools.length]!;
        world.end(s, 'uses', from, date);
        world.state(s, 'uses', to, date);
        world.state(to, 'replaced', from, date);
        uses.set(s, to);
        sentences.push(rng.pick([() => `We replaced ${n(from)} with ${n(to)} in ${n(s)}, much less memory.`, () => `${n(s)} dropped ${n(from)}; it uses ${n(to)} now.`])());
      } else {
        const p = c.what as ThemePerson;
        const from = home.get(p)!;
        const to = theme.places[(theme.places.indexOf(from) + 1) % theme.places.length]!;
        world.end(fullName(p), 'located_in', from, date);
        world.state(fullName(p), 'located_in', to, date);
        home.set(p, to);
        sentences.push(rng.pick([() => `${who(p)} relocated to ${n(to)}.`, () => `${who(p)} now lives in ${n(to)}, left ${n(from)} last month.`])());
      }
    }

    for (let i = rng.range(2, 4); i > 0; i--) {
      const p = rng.pick(theme.people);
      const q = rng.pick(theme.people.filter((x) => x !== p));
      const s = rng.pick(theme.services);
      const h = rng.pick(theme.hosts);
      sentences.push(
        rng.pick([
          () => `Long chat with ${who(p)} about ${n(s)} and what to do with the backlog.`,
          () => `${who(p)} and ${who(q)} disagree on the ${n(s)} schema.`,
          () => `Somebody filled up ${n(h)} again; ${who(p)} is looking.`,
          () => `cc @${p.handle} on the ${n(s)} postmortem.`,
          () => `Waiting on ${who(p)} for the ${n(s)} numbers.`,
        ])(),
      );
    }
    for (let i = rng.range(2, 4); i > 0; i--) sentences.push(dayNoise(rng, day));

    // Paragraphs under a few sections; the note's title is a long date.
    const title = `${LONG_DAYS[day.getUTCDay()]}, ${LONG_MONTHS[day.getUTCMonth()]} ${day.getUTCDate()}`;
    const sections = [rng.pick(SECTIONS), rng.pick(SECTIONS), rng.chance(0.15) ? rng.pick(theme.services) : rng.pick(SECTIONS)];
    const body: string[] = [`# ${title}`, ''];
    headings.push(title);
    const per = Math.ceil(sentences.length / sections.length);
    sections.forEach((h, i) => {
      headings.push(h);
      body.push(`### ${h}`, '', sentences.slice(i * per, (i + 1) * per).join(' '), '');
    });
    files.set(`memory/journal/${date}.md`, body.join('\n'));
  }

  const types: Array<[readonly string[], GoldType]> = [
    [theme.organisations, 'organization'],
    [theme.services, 'project'],
    [theme.hosts, 'machine'],
    [theme.tools, 'tool'],
    [theme.places, 'place'],
  ];
  const entities: GoldEntity[] = theme.people
    .filter((p) => used.has(fullName(p)))
    .map((p) => ({ label: fullName(p), type: 'person' as const, names: [fullName(p), `@${p.handle}`, ...(sharedFirst(p) ? [] : [p.first])] }));
  for (const [labels, type] of types) for (const label of labels) if (used.has(label)) entities.push({ label, type, names: [label] });
  return { files, entities, relations: world.relations, headings: [...new Set(headings)] };
}
