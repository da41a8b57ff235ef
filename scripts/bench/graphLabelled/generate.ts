/**
 * Writes six weeks of invented daily notes for a theme and, alongside, what is true in them:
 * the entities (with their types and the names they go by) and every typed relation with the
 * day it was stated and the day a later note ended it. The labels come from the simulated
 * world that wrote the sentences, never from the extractor.
 */
import { Rng } from '../prng.js';
import type { Theme, ThemePerson } from './themes.js';

export type GoldType = 'person' | 'organization' | 'project' | 'machine' | 'tool' | 'place';

export interface GoldEntity {
  label: string;
  type: GoldType;
  /** Every name the notes use for it (the label included). */
  names: string[];
}

export interface GoldRelation {
  subject: string;
  predicate: string;
  object: string;
  from: string;
  /** The date of the note that ended it; null while still true. */
  until: string | null;
}

export interface LabelledWorkspace {
  /** Relative path → Markdown. */
  files: Map<string, string>;
  entities: GoldEntity[];
  relations: GoldRelation[];
  /** Every heading written (sections, not entities, unless a gold entity is named). */
  headings: string[];
}

const DAYS = 42;
const START = Date.UTC(2026, 8, 28);
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const WEEKDAYS_LONG = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const SECTION_HEADINGS = ['Notes', 'Standup', 'Work', 'Meeting: architecture review', 'People', 'Projects', 'Evening', 'Follow-ups', 'Migration'];

/** Lines with no entity in them: the furniture of a developer's day. */
function furniture(rng: Rng, day: Date): string {
  const weekday = WEEKDAYS_LONG[rng.int(7)]!;
  const month = MONTHS[rng.int(12)]!;
  const lines = [
    `Standup at 09:${rng.range(10, 59)} CET, retro on ${weekday}.`,
    `p95 latency ${rng.range(90, 400)} ms at ${rng.range(2, 9)},${rng.range(100, 999)} requests/minute.`,
    `Q${rng.range(1, 4)} planning pushed to ${weekday} ${rng.range(1, 28)} ${month}.`,
    `Lunch: the ramen place closes on ${weekday}s.`,
    `TODO: rotate the TLS cert before ${weekday}.`,
    `Ran \`kubectl rollout restart deploy/api\` twice, then \`Add(24*time.Hour)\` fixed the expiry.`,
    `Migration went fine, ${rng.range(2, 40)} GB copied in ${rng.range(3, 50)} minutes.`,
    `Didn't get to the backlog; API docs still stale.`,
    `Meeting ran over until ${rng.range(13, 18)}:00 UTC.`,
    `Budget review in ${month}, deadline ${iso(new Date(day.getTime() + rng.range(3, 30) * 86_400_000))}.`,
    `Deploy window moves to ${weekday} at ${rng.range(6, 11)} am PST.`,
    `Notes from the ${weekday} sync are in the shared doc.`,
  ];
  return rng.pick(lines);
}

function iso(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** A simulated world: what is true now, and the record of every relation ever stated. */
export class World {
  readonly relations: GoldRelation[] = [];
  private readonly open = new Map<string, GoldRelation>();

  state(subject: string, predicate: string, object: string, date: string): void {
    const key = `${subject}|${predicate}|${object}`;
    if (!this.open.has(key)) {
      const r = { subject, predicate, object, from: date, until: null };
      this.relations.push(r);
      this.open.set(key, r);
    }
  }

  end(subject: string, predicate: string, object: string, date: string): void {
    const key = `${subject}|${predicate}|${object}`;
    const r = this.open.get(key);
    if (r) {
      r.until = date;
      this.open.delete(key);
    }
  }

  isOpen(subject: string, predicate: string, object: string): boolean {
    return this.open.has(`${subject}|${predicate}|${object}`);
  }
}

export function generateLabelledWorkspace(theme: Theme): LabelledWorkspace {
  const rng = new Rng(theme.seed);
  const world = new World();
  const used = new Set<string>();
  const headings: string[] = [];
  const files = new Map<string, string>();
  const fullName = (p: ThemePerson) => `${p.first} ${p.last}`;
  const sharedFirst = (p: ThemePerson) => theme.people.filter((q) => q.first === p.first).length > 1;

  // The true state, assigned up front and changed on scheduled days.
  const owner = new Map(theme.services.map((s, i) => [s, theme.people[i % theme.people.length]!]));
  const lead = new Map(theme.services.map((s, i) => [s, theme.people[(i + 2) % theme.people.length]!]));
  const host = new Map(theme.services.map((s, i) => [s, theme.hosts[i % theme.hosts.length]!]));
  const uses = new Map(theme.services.map((s, i) => [s, theme.tools[i % theme.tools.length]!]));
  const home = new Map(theme.people.map((p, i) => [p, theme.places[i % theme.places.length]!]));
  const employer = new Map(theme.people.slice(0, theme.organisations.length).map((p, i) => [p, theme.organisations[i]!]));
  const changes: Array<{ day: number; kind: 'host' | 'owner' | 'tool' | 'home'; what: string | ThemePerson }> = [];
  theme.services.forEach((s, i) => {
    changes.push({ day: 14 + ((i * 5) % 20), kind: 'host', what: s });
    if (i % 2 === 0) changes.push({ day: 18 + ((i * 7) % 18), kind: 'owner', what: s });
    if (i % 2 === 1) changes.push({ day: 20 + ((i * 3) % 15), kind: 'tool', what: s });
  });
  theme.people.slice(0, 3).forEach((p, i) => changes.push({ day: 22 + i * 6, kind: 'home', what: p }));

  for (let d = 0; d < DAYS; d++) {
    const day = new Date(START + d * 86_400_000);
    const date = iso(day);
    const named = new Set<ThemePerson>();
    /** How a person is called: the full name first in a note, then a mix of first name, @handle and full name. */
    const person = (p: ThemePerson, subject = false): string => {
      used.add(fullName(p));
      if (!named.has(p) || sharedFirst(p)) {
        named.add(p);
        return !subject && sharedFirst(p) && rng.chance(0.3) ? `@${p.handle}` : fullName(p);
      }
      if (!subject && rng.chance(0.25)) return `@${p.handle}`;
      return rng.chance(0.7) ? p.first : fullName(p);
    };
    const name = (x: string) => (used.add(x), x);
    const lines: string[] = [];

    // Facts stated early, and restated now and then while still true.
    const statements: Array<() => string> = [];
    for (const s of theme.services) {
      statements.push(() => {
        const p = owner.get(s)!;
        world.state(fullName(p), 'owns', s, date);
        return rng.pick([() => `${person(p, true)} owns ${name(s)}.`, () => `${name(s)} is owned by ${person(p)}.`, () => `${person(p, true)} owns the ${name(s)} repo now and then reviews it.`])();
      });
      statements.push(() => {
        const p = lead.get(s)!;
        world.state(fullName(p), 'leads', s, date);
        return rng.pick([() => `${person(p, true)} leads ${name(s)}.`, () => `${person(p, true)} is leading the ${name(s)} work this quarter.`])();
      });
      statements.push(() => {
        const h = host.get(s)!;
        world.state(s, 'runs_on', h, date);
        return rng.pick([() => `${name(s)} runs on ${name(h)}.`, () => `${name(s)} is hosted on ${name(h)}.`, () => `Checked that ${name(s)} still runs on ${name(h)}.`])();
      });
      statements.push(() => {
        const t = uses.get(s)!;
        world.state(s, 'uses', t, date);
        return rng.pick([() => `${name(s)} uses ${name(t)}.`, () => `${name(s)} uses ${name(t)} for caching and queues.`])();
      });
    }
    theme.services.forEach((s, i) => {
      const other = theme.services[(i + 1) % theme.services.length]!;
      if (i % 2 === 0)
        statements.push(() => {
          world.state(s, 'depends_on', other, date);
          return rng.pick([() => `${name(s)} depends on ${name(other)}.`, () => `Found out ${name(s)} depends on ${name(other)} for auth.`])();
        });
    });
    for (const p of theme.people) {
      statements.push(() => {
        const place = home.get(p)!;
        world.state(fullName(p), 'located_in', place, date);
        return rng.pick([() => `${person(p, true)} lives in ${name(place)}.`, () => `${person(p, true)} is based in ${name(place)}.`])();
      });
      const org = employer.get(p);
      if (org)
        statements.push(() => {
          world.state(fullName(p), 'member_of', org, date);
          return rng.pick([() => `${person(p, true)} works at ${name(org)}.`, () => `${person(p, true)} joined ${name(org)} last year.`])();
        });
      statements.push(() => {
        const t = theme.tools[(theme.people.indexOf(p) + 3) % theme.tools.length]!;
        world.state(fullName(p), 'prefers', t, date);
        return `${person(p, true)} prefers ${name(t)}.`;
      });
      statements.push(() => {
        const s = theme.services[theme.people.indexOf(p) % theme.services.length]!;
        world.state(fullName(p), 'works_on', s, date);
        return rng.pick([() => `${person(p, true)} works on ${name(s)}.`, () => `${person(p, true)} is working on ${name(s)} this week.`])();
      });
    }
    // The first ten days state everything once; later days restate a few things.
    const share = d < 10 ? statements.slice(Math.floor((d * statements.length) / 10), Math.floor(((d + 1) * statements.length) / 10)) : [];
    for (const st of share) lines.push(st());
    if (d >= 10) for (let i = 0; i < 2; i++) lines.push(rng.pick(statements)());

    // Scheduled changes: a later note, in its own words, ends the earlier relation.
    for (const c of changes.filter((x) => x.day === d)) {
      if (c.kind === 'host') {
        const s = c.what as string;
        const from = host.get(s)!;
        const to = theme.hosts[(theme.hosts.indexOf(from) + 1) % theme.hosts.length]!;
        world.end(s, 'runs_on', from, date);
        world.state(s, 'runs_on', to, date);
        host.set(s, to);
        lines.push(rng.pick([() => `Moved ${name(s)} from ${name(from)} to ${name(to)}.`, () => `${name(s)} moved from ${name(from)} to ${name(to)} today.`, () => `${name(s)} now runs on ${name(to)}.`])());
      } else if (c.kind === 'owner') {
        const s = c.what as string;
        const from = owner.get(s)!;
        const to = theme.people[(theme.people.indexOf(from) + 3) % theme.people.length]!;
        world.end(fullName(from), 'owns', s, date);
        world.state(fullName(to), 'owns', s, date);
        owner.set(s, to);
        lines.push(rng.pick([() => `${person(to, true)} took over ${name(s)} from ${person(from)}.`, () => `Ownership of ${name(s)} passed to ${person(to)}.`, () => `${name(s)} is now owned by ${person(to)}.`])());
      } else if (c.kind === 'tool') {
        const s = c.what as string;
        const from = uses.get(s)!;
        const to = theme.tools[(theme.tools.indexOf(from) + 1) % theme.tools.length]!;
        world.end(s, 'uses', from, date);
        world.state(s, 'uses', to, date);
        world.state(to, 'replaced', from, date);
        uses.set(s, to);
        lines.push(rng.pick([() => `Replaced ${name(from)} with ${name(to)} in ${name(s)}.`, () => `${name(s)} switched from ${name(from)} to ${name(to)}.`])());
      } else {
        const p = c.what as ThemePerson;
        const from = home.get(p)!;
        const to = theme.places[(theme.places.indexOf(from) + 1) % theme.places.length]!;
        world.end(fullName(p), 'located_in', from, date);
        world.state(fullName(p), 'located_in', to, date);
        home.set(p, to);
        lines.push(rng.pick([() => `${person(p, true)} moved from ${name(from)} to ${name(to)}.`, () => `${person(p, true)} moved to ${name(to)} last weekend.`])());
      }
    }

    // Co-mentions without a stated relation, possessives and handles.
    for (let i = rng.range(2, 4); i > 0; i--) {
      const p = rng.pick(theme.people);
      const q = rng.pick(theme.people.filter((x) => x !== p));
      const s = rng.pick(theme.services);
      const h = rng.pick(theme.hosts);
      lines.push(
        rng.pick([
          () => `Pairing with ${person(p)} on ${name(s)} tests.`,
          () => `Call with ${person(p)} and ${person(q)} about ${name(s)} alerts.`,
          () => `${person(p, true)}'s ${name(h)} disk is full again.`,
          () => `cc @${p.handle} on the ${name(s)} incident.`,
          () => `Asked ${person(p)} to review the ${name(s)} dashboards.`,
          () => `${person(p, true)} said ${name(s)} needs a retry budget.`,
        ])(),
      );
    }
    for (let i = rng.range(2, 4); i > 0; i--) lines.push(furniture(rng, day));

    // Headings: the day, then sections; sometimes a section named after a service.
    const dayHeading = rng.pick([`${WEEKDAYS[day.getUTCDay()]} ${day.getUTCDate()} ${MONTHS[day.getUTCMonth()]}`, `${WEEKDAYS_LONG[day.getUTCDay()]} ${day.getUTCDate()} ${MONTHS[day.getUTCMonth()]}`, WEEKDAYS[day.getUTCDay()]!]);
    const sections = [dayHeading, rng.pick(SECTION_HEADINGS), rng.chance(0.2) ? rng.pick(theme.services) : rng.pick(SECTION_HEADINGS)];
    const body: string[] = [`# ${date}`, ''];
    const per = Math.ceil(lines.length / sections.length);
    sections.forEach((h, i) => {
      headings.push(h);
      body.push(`## ${h}`, '');
      for (const l of lines.slice(i * per, (i + 1) * per)) body.push(`- ${l}`);
      body.push('');
    });
    files.set(`memory/${date}.md`, body.join('\n'));
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
