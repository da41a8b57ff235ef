import fs from 'node:fs';
import path from 'node:path';
import { parseFrontMatterFields } from '../platform/text/frontMatter.js';
import { processLogger } from '../platform/log/processLog.js';
import { scalar } from './noteContext.js';

const log = processLogger('graph');

/** The files that describe the person who writes the notes, the one about them first. */
const WRITER_FILES = ['USER.md', 'MEMORY.md'] as const;

/** One or more capitalised words: a person's name as USER.md gives it ("Dana", "Dana Okafor", "Zoë Müller"). */
const NAME = String.raw`(\p{Lu}[\p{L}'’-]*\p{Ll}[\p{L}'’-]*(?:[ \t]+\p{Lu}[\p{L}'’-]*\p{Ll}[\p{L}'’-]*){0,3})`;
/** "Name: Dana Okafor", "- **Name:** Dana", "Preferred name: Dana (she/her)". */
const NAME_LINE = new RegExp(
  String.raw`^[ \t]*(?:[-*+][ \t]+)?(?:\*\*)?(?:[Nn]ame|[Ff]ull name|[Pp]referred name|[Mm]e|[Ii] go by|[Cc]all me)(?:\*\*)?[ \t]*[:—–-]?(?:\*\*)?[ \t]+${NAME}[ \t]*(?:[.(,;—–-].*)?$`,
  'mu',
);
/**
 * "I am Dana Okafor, a backend engineer", "Hi, I'm Dana.", "My name is Dana and …". Never "I'm
 * a …" or "I am Based in …": the name must be followed by punctuation, the line's end or a joining word.
 */
const I_AM = new RegExp(String.raw`(?:^|[.!?,][ \t]+|^[ \t]*[-*+][ \t]+)(?:I am|I['’]m|[Mm]y name is|[Tt]his is|[Ii]t['’]s)[ \t]+${NAME}(?=[ \t]*(?:[,.;:(—–-]|$|(?:and|from|here|who)\b))`, 'mu');
/** "# Dana Okafor", "# About Dana" or "# USER — Dana Okafor" as the title (not "# USER", "# About me"). */
const TITLE = new RegExp(String.raw`^#[ \t]+(?:(?:USER|User|About)(?:\.md)?[ \t]*[:—–-]?[ \t]*)?${NAME}[ \t]*$`, 'mu');
const NOT_A_NAME = /^(?:User|Users|Me|Myself|About|Profile|Preferences|Notes|Directives|Agents|Memory|Long-term|Context|Readme|Here|Back|Not|Currently|Still|Based|Working|Living|Also|Now|Just|Fine|Happy|Sorry|Going|Done|Off|Out)$/i;

/**
 * The writer of the notes: the person USER.md names (front matter `name:`, a "Name: …" line,
 * "I am …", or a title that is a name). First-person lines ("I live in Rosemont", "joined
 * Tidewater in May") are about them. Null when USER.md names no one: a first-person relation
 * is then left unsaid rather than given a made-up subject.
 */
export function writerNameOf(text: string, options: { titleMayName: boolean } = { titleMayName: true }): string | null {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trimEnd() === '---') {
    const close = lines.findIndex((l, i) => i > 0 && i < 200 && l.trimEnd() === '---');
    if (close > 0) {
      const fields = parseFrontMatterFields(lines.slice(1, close));
      const name = scalar(fields.name ?? fields.author ?? fields.owner);
      if (name && new RegExp(`^${NAME}$`, 'u').test(name)) return name;
    }
  }
  // The first lines say who the person is; a directive further down may quote anyone.
  const head = lines.slice(0, 40).join('\n');
  for (const pattern of options.titleMayName ? [NAME_LINE, I_AM, TITLE] : [NAME_LINE, I_AM]) {
    const name = pattern.exec(head)?.[1];
    if (name && !NOT_A_NAME.test(name.split(/\s+/)[0]!)) return name;
  }
  return null;
}

/** A first name alone ("Priya", "Zoë"). */
const FIRST = String.raw`\p{Lu}\p{Ll}[\p{L}'’-]*`;
/** "Manager: Priya Natarajan", "Priya Natarajan is my manager", "my manager, Priya": the writer's manager (first name captured). */
const MANAGER = new RegExp(
  String.raw`^[ \t]*(?:[-*+][ \t]+)?(?:\*\*)?(?:[Mm]y )?(?:[Mm]anager|[Bb]oss|EM|[Ll]ine manager)(?:\*\*)?[ \t]*:(?:\*\*)?[ \t]*(${FIRST})|(${FIRST})(?:[ \t]+${FIRST})?[ \t]+(?:is|=)[ \t]+my[ \t]+(?:manager|boss|EM|line manager)\b|\bmy[ \t]+(?:manager|boss|EM|line manager)[ \t]*[,:]?[ \t]+(${FIRST})`,
  'gmu',
);
/** "Dana / Priya 1:1", "1:1 Dana <> Priya", "Dana & Priya 1-1": a one-to-one's two people (first names). */
const ONE_ON_ONE = new RegExp(
  String.raw`\b(${FIRST})[ \t]*(?:\/|<>|&|\+)[ \t]*(${FIRST})[ \t]+1[:-]1\b|\b1[:-]1s?[ \t]*[:(—–-]?[ \t]*(${FIRST})[ \t]*(?:\/|<>|&|\+)[ \t]*(${FIRST})\b`,
  'gu',
);

/**
 * The writer's first name when the notes never state it but name a one-to-one with their own
 * manager: a 1:1 is between the writer and the manager, so its other person is the writer
 * ("Manager: Priya Natarajan" and the doc "Dana / Priya 1:1" name Dana). Null without both, or
 * when the one-to-ones disagree.
 */
export function writerNameFromOneOnOne(text: string): string | null {
  const managers = new Set<string>();
  for (const m of text.matchAll(MANAGER)) managers.add((m[1] ?? m[2] ?? m[3])!);
  if (managers.size === 0) return null;
  const writers = new Set<string>();
  for (const m of text.matchAll(ONE_ON_ONE)) {
    const [a, b] = m[1] ? [m[1], m[2]!] : [m[3]!, m[4]!];
    if (managers.has(a) && !managers.has(b)) writers.add(b);
    else if (managers.has(b) && !managers.has(a)) writers.add(a);
  }
  return writers.size === 1 ? [...writers][0]! : null;
}

/**
 * The writer named by the workspace's USER.md (else its MEMORY.md), or null (no file, or they name
 * no one). Only when neither names them: the first name a one-to-one with their manager gives.
 */
export function readWriterName(workspaceRoot: string): string | null {
  const texts: string[] = [];
  for (const file of WRITER_FILES) {
    try {
      const text = fs.readFileSync(path.join(workspaceRoot, file), 'utf8');
      // MEMORY.md's title names the file's purpose ("# Projects"), never its writer.
      const name = writerNameOf(text, { titleMayName: file === 'USER.md' });
      if (name) return name;
      texts.push(text);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') log.debug('A file could not be read for the writer’s name', { file, error });
    }
  }
  return writerNameFromOneOnOne(texts.join('\n'));
}
