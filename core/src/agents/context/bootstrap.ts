import { frameMemory, UNTRUSTED_MEMORY_NOTICE } from '../framing.js';
import { withoutSupersededEntries } from './activeEntries.js';
import { readCuratedText, type CuratedName } from './curatedText.js';
import { truncateHeadTail } from './headTailTruncate.js';
import { collectProjectEntries } from './projectEntries.js';

export interface BootstrapOptions {
  workspaceRoot: string;
  /** Characters of the whole answer, notice and frames included. */
  budget?: number;
  perFileChars?: number;
  project?: string;
}

export interface BootstrapFileReport {
  /** `USER.md`, `MEMORY.md`, or `project:<key>` for the project's entries. */
  path: string;
  /** Characters on offer (superseded entries already left out). */
  chars: number;
  /** Characters of it in the answer (before framing). */
  included: number;
  truncated: boolean;
}

export interface BootstrapContext {
  text: string;
  files: BootstrapFileReport[];
  totalChars: number;
  budget: number;
  truncated: boolean;
}

interface Part {
  path: string;
  content: string;
}

const SEPARATOR = '\n\n';
// Below this a part would be a marker and a few words: left out instead.
const MIN_PART_CHARS = 200;

/** The context an agent starts with: USER.md's active directives, MEMORY.md, then the project's entries, each framed as data. */
export function buildBootstrapContext({ workspaceRoot, budget = 24_000, perFileChars = 20_000, project }: BootstrapOptions): BootstrapContext {
  const notes: string[] = [];
  const parts: Part[] = [];
  for (const name of ['USER.md', 'MEMORY.md'] as const satisfies readonly CuratedName[]) {
    const { text, skipped } = readCuratedText(workspaceRoot, name);
    if (skipped) notes.push(`Note: ${name} was left out. ${skipped}`);
    parts.push({ path: name, content: withoutSupersededEntries(text).trim() });
  }
  if (project !== undefined) parts.push({ path: `project:${project}`, content: projectContent(workspaceRoot, project) });

  const head = [UNTRUSTED_MEMORY_NOTICE, ...notes].join(SEPARATOR);
  let remaining = budget - head.length;
  const blocks: string[] = [];
  const files: BootstrapFileReport[] = [];
  for (const part of parts) {
    const fitted = part.content === '' ? null : fitPart(part, perFileChars, remaining - SEPARATOR.length);
    if (fitted) {
      blocks.push(fitted.framed);
      remaining -= SEPARATOR.length + fitted.framed.length;
    }
    files.push({ path: part.path, chars: part.content.length, included: fitted?.included ?? 0, truncated: fitted ? fitted.truncated : part.content !== '' });
  }
  // The notice and notes alone can only overrun a budget far below the contract's minimum.
  const text = [head, ...blocks].join(SEPARATOR).slice(0, budget);
  return { text, files, totalChars: text.length, budget, truncated: files.some((f) => f.truncated) };
}

/** The part framed within `room` characters: cut head/tail to the smaller of the per-file limit and what is left. */
function fitPart(part: Part, perFileChars: number, room: number): { framed: string; included: number; truncated: boolean } | null {
  const frame = (text: string) => frameMemory(text, { source: part.path });
  let limit = Math.min(perFileChars, room - frame('').length);
  while (limit >= Math.min(MIN_PART_CHARS, part.content.length)) {
    const cut = truncateHeadTail(part.content, limit);
    const framed = frame(cut.text);
    if (framed.length <= room) return { framed, included: cut.text.length, truncated: cut.truncated };
    // Neutralised frame tags grew the text: shrink by the overrun and try again.
    limit -= framed.length - room;
  }
  return null;
}

/** One line per entry, `path:line text`, so an agent can open the note with `memory.get`. */
function projectContent(workspaceRoot: string, project: string): string {
  return collectProjectEntries(workspaceRoot, project)
    .map((entry) => `- ${entry.path}:${entry.line} ${entry.text}`)
    .join('\n');
}
