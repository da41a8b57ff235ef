/**
 * Deterministic synthetic workspace: natural-language daily notes, slugged notes and topic
 * folders under `memory/`, plus MEMORY.md and USER.md, and the questions asked of it.
 * File i is a pure function of (seed, i), so growing the corpus only appends new files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildLexicon, type Lexicon, type Verb } from './lexicon.js';
import { Rng } from './prng.js';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const UNITS = ['minutes', 'hours', 'days', 'euros', 'dollars', 'pages', 'GB', 'requests'];
const START_DAY = Date.UTC(2000, 0, 1);
const DAY_MS = 86_400_000;
/** Of every 10 files: 4 dated daily notes, 4 slugged dated notes, 2 notes in topic folders. */
const DAILY_PER_10 = 4;
const SLUGGED_PER_10 = 4;

export interface WriteStats {
  files: number;
  bytes: number;
  seconds: number;
}

function isoDay(day: number): string {
  return new Date(START_DAY + day * DAY_MS).toISOString().slice(0, 10);
}

function weekdayOf(day: number): string {
  return WEEKDAY_NAMES[new Date(START_DAY + day * DAY_MS).getUTCDay()]!;
}

function slugify(words: readonly string[]): string {
  return words.join('-').toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/-+/g, '-').replace(/^-|-$/g, '');
}

export class SyntheticCorpus {
  readonly lex: Lexicon;
  private readonly usedPaths = new Set<string>();
  private nextIndex = 0;

  constructor(
    readonly workspace: string,
    readonly seed = 20240601,
  ) {
    this.lex = buildLexicon(seed);
  }

  /** Number of generated notes so far (excluding MEMORY.md and USER.md). */
  get fileCount(): number {
    return this.nextIndex;
  }

  /** Highest day index that has a daily note. */
  get daySpan(): number {
    return Math.max(1, Math.floor(this.nextIndex / 10) * DAILY_PER_10 + Math.min(DAILY_PER_10, this.nextIndex % 10));
  }

  dayString(day: number): string {
    return isoDay(day);
  }

  /** Writes MEMORY.md and USER.md. */
  writeRootFiles(): WriteStats {
    const started = performance.now();
    const rng = new Rng(this.seed ^ 0x5eed);
    const memory = ['# Memory', '', 'Long-term memory: durable facts, decisions and context worth keeping.', ''];
    for (const section of ['People', 'Projects', 'Decisions', 'Preferences', 'Systems']) {
      memory.push(`## ${section}`, '');
      for (let i = 0; i < 40; i++) memory.push(`- ${this.sentence(rng)}`);
      memory.push('');
    }
    const user = [
      '# User',
      '',
      'Who you are and how you like to work. Agents read this first.',
      '',
      `- Preferred name: ${this.lex.people[0]}`,
      '- Timezone: Europe/Lisbon',
      `- Works on: ${this.lex.projects.slice(0, 5).join(', ')}`,
      `- Likes: ${this.lex.nouns.slice(0, 6).join(', ')}`,
      '',
    ];
    const memoryText = memory.join('\n') + '\n';
    const userText = user.join('\n');
    fs.writeFileSync(path.join(this.workspace, 'MEMORY.md'), memoryText);
    fs.writeFileSync(path.join(this.workspace, 'USER.md'), userText);
    return {
      files: 2,
      bytes: Buffer.byteLength(memoryText) + Buffer.byteLength(userText),
      seconds: (performance.now() - started) / 1000,
    };
  }

  /** Appends `count` more notes under memory/. */
  writeNotes(count: number): WriteStats {
    const started = performance.now();
    const madeDirs = new Set<string>();
    let bytes = 0;
    for (let k = 0; k < count; k++) {
      const i = this.nextIndex++;
      const { rel, text } = this.note(i);
      const abs = path.join(this.workspace, rel);
      const dir = path.dirname(abs);
      if (!madeDirs.has(dir)) {
        fs.mkdirSync(dir, { recursive: true });
        madeDirs.add(dir);
      }
      fs.writeFileSync(abs, text);
      bytes += Buffer.byteLength(text);
    }
    return { files: count, bytes, seconds: (performance.now() - started) / 1000 };
  }

  private uniquePath(rel: string, i: number): string {
    let p = rel;
    if (this.usedPaths.has(p)) p = rel.replace(/\.md$/, `-${i.toString(36)}.md`);
    this.usedPaths.add(p);
    return p;
  }

  /** The i-th note: its workspace-relative path and text. */
  note(i: number): { rel: string; text: string } {
    const rng = new Rng((this.seed ^ Math.imul(i + 1, 0x9e3779b1)) >>> 0);
    const slot = i % 10;
    const targetBytes = rng.range(3500, 6500);
    const lines: string[] = [];
    let rel: string;
    if (slot < DAILY_PER_10) {
      const day = Math.floor(i / 10) * DAILY_PER_10 + slot;
      rel = `memory/${isoDay(day)}.md`;
      lines.push(`# ${isoDay(day)} (${weekdayOf(day)})`, '');
    } else if (slot < DAILY_PER_10 + SLUGGED_PER_10) {
      const day = rng.int(Math.floor(i / 10) * DAILY_PER_10 + DAILY_PER_10);
      const project = rng.zipf(this.lex.projects);
      const noun = this.noun(rng);
      const kind = rng.pick(['meeting', 'notes', 'review', 'call', 'plan', 'retro', 'trip', 'idea']);
      rel = this.uniquePath(`memory/${isoDay(day)}-${slugify([project, noun, kind])}.md`, i);
      lines.push(`# ${project} ${noun} ${kind}`, '', `Date: ${isoDay(day)} (${weekdayOf(day)})`, '');
    } else {
      const topic = rng.pick(this.lex.topics);
      const title = [rng.pick(this.lex.adjectives), this.noun(rng), rng.zipf(this.lex.projects)];
      const sub = topic === 'projects' ? `${rng.zipf(this.lex.projects).toLowerCase()}/` : '';
      rel = this.uniquePath(`memory/${topic}/${sub}${slugify(title)}.md`, i);
      lines.push(`# ${title.join(' ')}`, '', `Topic: ${topic}. Owner: ${rng.zipf(this.lex.people)}.`, '');
    }

    let size = lines.reduce((n, l) => n + l.length + 1, 0);
    while (size < targetBytes) {
      const section = this.section(rng);
      for (const l of section) size += l.length + 1;
      lines.push(...section);
    }
    return { rel, text: lines.join('\n') + '\n' };
  }

  private section(rng: Rng): string[] {
    const heading = rng.pick([
      'Standup', 'Meetings', 'Notes', 'Decisions', 'TODO', 'Journal', 'Ops', 'Reading', 'Errands',
      'Ideas', 'Follow-ups', 'Calls', 'Home', 'Health', 'Links', 'Log',
    ]);
    const out = [`## ${heading}`, ''];
    if (rng.chance(0.35)) {
      const n = rng.range(2, 5);
      const sentences: string[] = [];
      for (let k = 0; k < n; k++) sentences.push(this.sentence(rng));
      out.push(sentences.join(' '));
    } else {
      const n = rng.range(3, 8);
      for (let k = 0; k < n; k++) {
        const box = heading === 'TODO' || heading === 'Follow-ups' ? (rng.chance(0.5) ? '[ ] ' : '[x] ') : '';
        out.push(`- ${box}${this.sentence(rng)}`);
      }
    }
    out.push('');
    return out;
  }

  /** A noun slot: mostly common English nouns, a quarter coined (mostly rare) words. */
  noun(rng: Rng): string {
    return rng.chance(0.25) ? rng.zipf(this.lex.jargon) : rng.zipf(this.lex.nouns);
  }

  private verb(rng: Rng): Verb {
    return rng.zipf(this.lex.verbs);
  }

  sentence(rng: Rng): string {
    const L = this.lex;
    const person = rng.zipf(L.people);
    const person2 = rng.zipf(L.people);
    const place = rng.zipf(L.places);
    const project = rng.zipf(L.projects);
    const tool = rng.zipf(L.tools);
    const adj = rng.zipf(L.adjectives);
    const adj2 = rng.zipf(L.adjectives);
    const noun = this.noun(rng);
    const noun2 = this.noun(rng);
    const jargon = rng.zipf(L.jargon);
    const v = this.verb(rng);
    const v2 = this.verb(rng);
    const v3 = this.verb(rng);
    const weekday = rng.pick(L.weekdays);
    const time = rng.pick(L.times);
    const month = rng.pick(MONTHS);
    const n = rng.range(2, 90);
    const unit = rng.pick(UNITS);
    switch (rng.int(16)) {
      case 0: return `${person} and I talked about the ${project} ${noun} at the ${place}; we decided to ${v.base} the ${adj} ${noun2} before ${weekday}.`;
      case 1: return `${person} ${v.past} the ${noun} in ${place} after the ${adj} ${noun2} broke again.`;
      case 2: return `Need to ${v.base} ${tool} on the ${noun} box — last time it took ${n} ${unit}.`;
      case 3: return `To restart ${tool}: run \`${tool} restart\`, then check the ${noun} logs for ${jargon} errors.`;
      case 4: return `${person}'s ${noun} is on ${weekday} ${time} at ${place}.`;
      case 5: return `We agreed the ${project} migration moves to ${tool} by ${month}; ${person2} owns the ${jargon} part.`;
      case 6: return `Idea: a ${adj} ${jargon} for the ${noun}, maybe using ${tool}.`;
      case 7: return `Spent the ${time} on ${project}: ${v.past} the ${noun}, ${v2.past} the ${noun2}, and ${v3.past} the ${jargon}.`;
      case 8: return `Reminder: ${v.base} the ${noun} for ${person} (${adj}, about ${n} ${unit}).`;
      case 9: return `Felt ${adj} this ${time}; the ${noun} at the ${place} was ${adj2}.`;
      case 10: return `${person} said the ${jargon} ${noun} is ${adj} and suggested we ${v.base} it with ${tool}.`;
      case 11: return `Question for ${person}: should ${project} keep the ${adj} ${noun} or ${v.base} to ${jargon}?`;
      case 12: return `Decision: ${project} will ${v.base} the ${noun2} instead of the ${adj} ${noun}, as ${person} and ${person2} proposed.`;
      case 13: return `The ${tool} ${noun} on ${place} was ${adj} again; ${person} ${v.past} it and wrote it up in the runbook.`;
      case 14: return `Booked ${noun} with ${person} in ${place} for ${weekday} ${n} ${month}.`;
      default: return `Note to self: the ${adj} ${noun} and the ${jargon} are related, ask ${person} how ${project} handles it.`;
    }
  }
}

export type QuestionKind = 'decision' | 'when' | 'who' | 'howto' | 'common' | 'rare' | 'long' | 'date' | 'prefix';

export interface Question {
  kind: QuestionKind;
  query: string;
}

const QUESTION_PLAN: ReadonlyArray<[QuestionKind, number]> = [
  ['decision', 50], ['when', 45], ['who', 45], ['howto', 45], ['common', 40],
  ['rare', 40], ['long', 30], ['date', 10], ['prefix', 15],
];

/** Natural-language questions over the corpus vocabulary (plus `extra` warm-up ones with another seed). */
export function makeQuestions(corpus: SyntheticCorpus, seed: number, scale = 1): Question[] {
  const rng = new Rng(seed);
  const L = corpus.lex;
  const out: Question[] = [];
  const cap = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);
  for (const [kind, count] of QUESTION_PLAN) {
    const n = Math.max(1, Math.round(count * scale));
    for (let k = 0; k < n; k++) {
      const person = rng.zipf(L.people);
      const project = rng.zipf(L.projects);
      const noun = corpus.noun(rng);
      const place = rng.zipf(L.places);
      const tool = rng.zipf(L.tools);
      let query: string;
      switch (kind) {
        case 'decision':
          query = rng.pick([
            `what did we decide about the ${project} migration?`,
            `what was decided on ${project} ${noun}?`,
            `did we ever agree on the ${noun} for ${project}?`,
          ]);
          break;
        case 'when':
          query = rng.pick([`when is ${person}'s ${noun}?`, `when was the ${noun} with ${person}?`, `When is the ${noun} in ${place}?`]);
          break;
        case 'who':
          query = rng.pick([`who fixed the ${noun} in ${place}`, `who fixed the ${noun} in ${place}?`, `who owns the ${noun} part of ${project}?`]);
          break;
        case 'howto':
          query = rng.pick([`how do I restart ${tool}`, `how do I restart ${tool}?`, `How do we ${rng.zipf(L.verbs).base} ${tool} on the ${noun} box?`]);
          break;
        case 'common':
          query = rng.pick([
            `what did we talk about at the meeting this week?`,
            `what are my notes about the release?`,
            `what is the status of the database migration and the backup?`,
            `what did I do on ${rng.pick(L.weekdays)} ${rng.pick(L.times)}?`,
            `what did we decide in the standup?`,
            `what was the last thing we decided about the server?`,
            `is there anything urgent I need to do?`,
            `what did ${person} say about the meeting?`,
          ]);
          break;
        case 'rare': {
          const a = rng.tail(L.jargon, 0.3);
          const b = rng.tail(L.jargon, 0.3);
          query = rng.pick([`anything about ${a}?`, `where did I write down the ${a} ${b}?`, `what do we know about ${a}`]);
          break;
        }
        case 'long':
          query =
            `can you remind me what ${person} said about the ${rng.zipf(L.adjectives)} ${noun} for ${project} ` +
            `when we were in ${cap(place)} last ${rng.pick(L.weekdays)}, and whether we decided to ${rng.zipf(L.verbs).base} it with ${tool}?`;
          break;
        case 'date':
          query = `what happened on ${corpus.dayString(rng.int(corpus.daySpan))}?`;
          break;
        case 'prefix': {
          const word = rng.pick([`migr`, `dent`, `back`, `rest`, `deplo`, `invo`]);
          query = rng.chance(0.5) ? `${project} ${word}` : `${person} ${word}`;
          break;
        }
      }
      out.push({ kind, query });
    }
  }
  // Interleave kinds so warm caches do not favour one kind.
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
