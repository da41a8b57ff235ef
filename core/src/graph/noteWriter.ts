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

/** The writer named by the workspace's USER.md (else its MEMORY.md), or null (no file, or they name no one). */
export function readWriterName(workspaceRoot: string): string | null {
  for (const file of WRITER_FILES) {
    try {
      // MEMORY.md's title names the file's purpose ("# Projects"), never its writer.
      const name = writerNameOf(fs.readFileSync(path.join(workspaceRoot, file), 'utf8'), { titleMayName: file === 'USER.md' });
      if (name) return name;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') log.debug('A file could not be read for the writer’s name', { file, error });
    }
  }
  return null;
}
