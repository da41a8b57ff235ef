import fs from 'node:fs';
import path from 'node:path';
import { parseFrontMatterFields } from '../platform/text/frontMatter.js';
import { processLogger } from '../platform/log/processLog.js';
import { scalar } from './noteContext.js';

const log = processLogger('graph');

/** The file that describes the person who writes the notes. */
export const WRITER_FILE = 'USER.md';

/** One or more capitalised words: a person's name as USER.md gives it ("Dana", "Dana Okafor", "Zoë Müller"). */
const NAME = String.raw`(\p{Lu}[\p{Ll}'’-]+(?:[ \t]+\p{Lu}[\p{Ll}'’-]+){0,3})`;
/** "Name: Dana Okafor", "- **Name:** Dana". */
const NAME_LINE = new RegExp(String.raw`^[ \t]*(?:[-*+][ \t]+)?(?:\*\*)?(?:[Nn]ame|[Ff]ull name|[Ii] go by|[Cc]all me)(?:\*\*)?[ \t]*:?(?:\*\*)?[ \t]+${NAME}[ \t]*\.?[ \t]*$`, 'mu');
/** "I am Dana Okafor, a backend engineer", "I'm Dana.", "My name is Dana". Never "I'm a …" or "I am Based …": the name must be followed by punctuation or the line's end. */
const I_AM = new RegExp(String.raw`(?:^|[.!?][ \t]+|^[ \t]*[-*+][ \t]+)(?:I am|I['’]m|[Mm]y name is|[Tt]his is)[ \t]+${NAME}(?=[ \t]*(?:[,.;:(—–-]|$))`, 'mu');
/** "# Dana Okafor" or "# About Dana" as USER.md's title (not "# USER", "# About me"). */
const TITLE = new RegExp(String.raw`^#[ \t]+(?:About[ \t]+)?${NAME}[ \t]*$`, 'mu');
const NOT_A_NAME = /^(?:User|Users|Me|Myself|About|Profile|Preferences|Notes|Directives|Agents|Memory|Context|Readme|Here|Back|Not|Currently|Still|Based|Working|Living|Also|Now)$/;

/**
 * The writer of the notes: the person USER.md names (front matter `name:`, a "Name: …" line,
 * "I am …", or a title that is a name). First-person lines ("I live in Rosemont", "joined
 * Tidewater in May") are about them. Null when USER.md names no one: a first-person relation
 * is then left unsaid rather than given a made-up subject.
 */
export function writerNameOf(text: string): string | null {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trimEnd() === '---') {
    const close = lines.findIndex((l, i) => i > 0 && i < 200 && l.trimEnd() === '---');
    if (close > 0) {
      const name = scalar(parseFrontMatterFields(lines.slice(1, close)).name);
      if (name && new RegExp(`^${NAME}$`, 'u').test(name)) return name;
    }
  }
  // The first lines say who the person is; a directive further down may quote anyone.
  const head = lines.slice(0, 40).join('\n');
  for (const pattern of [NAME_LINE, I_AM, TITLE]) {
    const name = pattern.exec(head)?.[1];
    if (name && !NOT_A_NAME.test(name.split(/\s+/)[0]!)) return name;
  }
  return null;
}

/** The writer named by the workspace's USER.md, or null (no file, or it names no one). */
export function readWriterName(workspaceRoot: string): string | null {
  try {
    return writerNameOf(fs.readFileSync(path.join(workspaceRoot, WRITER_FILE), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') log.debug('USER.md could not be read for the writer’s name', { error });
    return null;
  }
}
