import { isFurnitureLabel, isFurnitureWord } from './furniture.js';
import { parseMarkdownEntries } from '../workspace/markdownEntries.js';
import { cleanLabel, labelKey } from './labelKey.js';
import { findMentions } from './mentions.js';
import { isDateHeading, listOf, readNoteContext, scalar, type NoteContext } from './noteContext.js';
import { findRelations, type EntryVoice } from './relations.js';
import { tableCells } from './tableRelations.js';
import { settleTypesInFile, voteOf } from './typeVotes.js';
import type { ClaimMention, EntityMention, ExtractedEntry } from './types.js';

const KEY_VALUE = /^([\p{L}][\p{L}\p{N} _-]{0,40}?)\s*:\s+(\S.{0,300})$/u;
const HAS_WORD = /[\p{L}\p{N}]/u;
const NOT_A_KEY = new Set(['http', 'https', 'note', 'todo', 'fixme', 'update', 'edit']);
/** Front matter fields that are not facts about the note's subject. */
const FRONT_MATTER_META = new Set(['title', 'date', 'aliases', 'alias', 'tags', 'tag', 'type', 'created', 'updated', 'id']);

const CONFIDENCE = { relation: 0.7, keyValue: 0.9, frontMatter: 0.9 } as const;

/**
 * Graph extraction reads at most this many characters of any one line. Mention and relation
 * patterns cost far more than linear time on huge unbroken lines (a base64 image, a minified
 * blob), and such lines name no people or projects; the keyword index still holds the whole line.
 */
export const GRAPH_LINE_CAP = 2_000;

/** Cuts every line to `cap` characters, keeping line numbers; one pass over the text. */
export function capLineLength(text: string, cap: number): string {
  const lines = text.split('\n');
  let cut = false;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.length > cap) {
      lines[i] = lines[i]!.slice(0, cap);
      cut = true;
    }
  }
  return cut ? lines.join('\n') : text;
}

/** What a file's extraction knows about the workspace beyond the file. */
export interface ExtractionContext {
  /** The writer of the notes as USER.md names them (see noteWriter.ts); null when it names no one. */
  writerName: string | null;
}

/** A heading that is a person's full name, maybe with a remark ("Brian Otieno (gone)"). */
const PERSON_HEADING = /^(\p{Lu}\p{Ll}+(?:[ \t]+\p{Lu}\p{Ll}+){1,2})(?:[ \t]+\([^)]*\))?$/u;
/** Files that describe the writer: a line without a subject is about them. */
const ABOUT_WRITER = new Set(['MEMORY.md', 'USER.md']);

/**
 * Entities, claims and aliases of one Markdown file, entry by entry, by syntax alone.
 * `fallbackDate` dates entries whose note has no date of its own (the file's mtime).
 */
export function extractFile(path: string, fullText: string, fallbackDate: string | null, context: ExtractionContext = { writerName: null }): ExtractedEntry[] {
  const text = capLineLength(fullText, GRAPH_LINE_CAP);
  const note = readNoteContext(path, text);
  // A person's or project's note speaks about them; a journal entry (dated or untitled), MEMORY.md and USER.md in the writer's own voice.
  const aboutWriter = ABOUT_WRITER.has(path);
  const aboutOther = note.subject.type === 'person' || note.subject.type === 'project';
  const voice: EntryVoice = {
    writer: context.writerName ? { type: 'person', label: context.writerName, certainty: 'strong' } : null,
    ownVoice: !aboutOther && (aboutWriter || note.date !== null || note.subject.type === 'path'),
    aboutWriter,
  };
  const noteDate = note.date ?? fallbackDate;
  // "# USER" atop USER.md names the file, not a thing: once USER.md names the writer, its lines are about them.
  const writerFileTitle = aboutWriter && voice.writer ? note.title : null;
  const entries: ExtractedEntry[] = [];
  const fm = frontMatterEntry(note, noteDate);
  if (fm) entries.push(fm);

  // Names first, for the whole file: how a name is used across it decides its type (typeVotes.ts).
  const found = parseMarkdownEntries(note.body)
    // Nothing to name or state (a Hermes `§` separator, a rule of dashes): no entry to record.
    .filter((entry) => HAS_WORD.test(entry.body))
    .map((entry) => ({ entry, mentions: findMentions(entry.body) }));
  settleTypesInFile(found.map((f) => f.mentions));

  // Asked once per file and once per heading, not per entry: a section holds several entries.
  const subjectNamed = readsAsName(note.subject.label);
  // The note's title heading names its subject ("# Hamia — payouts-api AWS → GCP" in a project's note names Hamia).
  const titleKeys = [labelKey(note.subject.label), ...(note.title !== null ? [labelKey(note.title)] : [])];
  const headings = new Map<string, { title: boolean; section: boolean }>();
  const headingOf = (heading: string) => {
    let facts = headings.get(heading);
    if (!facts) {
      // A heading is a section, not an entity, unless the workspace names it elsewhere too (tentative).
      const section = heading !== writerFileTitle && !isDateHeading(heading) && !isFurnitureLabel(heading.replace(/[:—–-]+/g, ' '));
      headings.set(heading, (facts = { title: titleKeys.includes(labelKey(heading)), section }));
    }
    return facts;
  };

  /** The table the entries are rows of: its first row's cells, and its last row's line. */
  let table: { header: string[]; lastLine: number } | null = null;
  for (const { entry, mentions } of found) {
    // A table's rows follow its header (after the |---| line, which names nothing): a row further down starts a new table.
    const tableRow = entry.startLine === entry.endLine && entry.body.trimStart().startsWith('|');
    let tableHeader: string[] | null = null;
    if (!tableRow) table = null;
    else if (table && entry.startLine <= table.lastLine + 2) {
      tableHeader = table.header;
      table.lastLine = entry.startLine;
    } else table = { header: tableCells(entry.body).map((c) => c.text), lastLine: entry.startLine };
    // Under the note's own title, "Key: value" lines are facts of the note's subject.
    const underTitle = !entry.heading || headingOf(entry.heading).title;
    // Every section of a person's or project's note is about them: a line without a subject too ("Lives in Wedding.", "## Work with him: - Owns …").
    // In a note about people, a section headed by a full name ("### Hope Wanjiku") is about that person.
    const sectionPerson = note.subject.type === 'person' && entry.heading ? PERSON_HEADING.exec(entry.heading)?.[1] : undefined;
    const topic = sectionPerson
      ? { type: 'person' as const, label: sectionPerson, certainty: 'strong' as const }
      : aboutOther && subjectNamed
        ? { ...note.subject, certainty: 'strong' as const }
        : null;
    // Relations read the settled types (a host, a place).
    const relations = findRelations(entry.body, mentions, topic, voice, tableHeader);
    const built = new EntryBuilder(entry.startLine, entry.endLine, entry.annotations.observed ?? noteDate);
    const heading = entry.heading && headingOf(entry.heading).section ? entry.heading : null;
    const headingIndex = heading
      ? built.entity(headingOf(heading).title ? subjectMention(note) : { type: 'concept', label: heading, certainty: 'tentative' })
      : null;
    const mentionIndex = mentions.map((m) => built.entity(m));
    for (const r of relations) built.claim({ subject: mentionIndex[r.subject]!, predicate: r.predicate, object: mentionIndex[r.object]!, literal: null, confidence: CONFIDENCE.relation });
    mentions.forEach((m, i) => {
      if (m.alias && labelKey(m.alias) !== labelKey(m.label)) built.aliases.push({ entity: mentionIndex[i]!, alias: cleanLabel(m.alias) });
    });
    // "Key: value" is a fact of the section's or the note's subject; a note without a title is evidence, not a subject.
    const titleSubject = underTitle && note.subject.type !== 'path' && subjectNamed;
    const hasSubject = titleSubject || (!underTitle && heading !== null);
    const kv = hasSubject && entry.body.includes(':') ? KEY_VALUE.exec(entry.body) : null;
    if (kv && hasSubject && kv[1]!.trim().split(/\s+/).length <= 4 && !NOT_A_KEY.has(kv[1]!.trim().toLowerCase()) && !isFurnitureWord(kv[1]!.trim())) {
      // Only a stated fact makes the note's title an entity here (a title alone is a section).
      const kvSubject = titleSubject ? built.entity(writerFileTitle !== null ? voice.writer! : { ...note.subject, certainty: 'strong' }) : headingIndex!;
      built.claim({ subject: kvSubject, predicate: predicateOf(kv[1]!), object: null, literal: kv[2]!.trim().replace(/[.;]$/, ''), confidence: CONFIDENCE.keyValue });
    }
    entries.push(built.done());
  }
  confirmRecurringNames(entries);
  return entries;
}

/** A title that names a thing ("Caddy setup"), not a document's headline ("Postgres 15 → 16 upgrade, ledger cluster — runbook"). */
function readsAsName(title: string): boolean {
  return title.split(/\s+/).length <= 5 && !/\s[—–-]\s|→|:\s|[,;]/.test(title);
}

/** A note about a person or project is that entity; any other note's title is a section heading like the rest. */
function subjectMention(note: NoteContext): EntityMention {
  return { ...note.subject, certainty: note.subject.type === 'concept' ? 'tentative' : 'strong' };
}

function frontMatterEntry(note: NoteContext, date: string | null): ExtractedEntry | null {
  if (!note.frontMatter) return null;
  const { fields, endLine } = note.frontMatter;
  const built = new EntryBuilder(1, endLine, date);
  const subject = built.entity({ ...note.subject, certainty: 'strong' });
  for (const alias of [...listOf(fields.aliases), ...listOf(fields.alias)]) built.aliases.push({ entity: subject, alias: cleanLabel(alias) });
  for (const tag of [...listOf(fields.tags), ...listOf(fields.tag)]) built.entity({ type: 'tag', label: tag.replace(/^#/, '').toLowerCase(), certainty: 'strong' });
  for (const [key, value] of Object.entries(fields)) {
    const literal = scalar(value);
    if (FRONT_MATTER_META.has(key.toLowerCase()) || !literal) continue;
    built.claim({ subject, predicate: predicateOf(key), object: null, literal: literal.slice(0, 300), confidence: CONFIDENCE.frontMatter });
  }
  return built.done();
}

function predicateOf(key: string): string {
  return labelKey(key).replace(/[\s-]+/g, '_');
}

/** A name seen only sentence-initially is kept when the same file names it elsewhere too (not merely at other sentence starts). */
function confirmRecurringNames(entries: ExtractedEntry[]): void {
  const sure = new Set<string>();
  const tentative: EntityMention[] = [];
  for (const e of entries)
    for (const m of e.entities) {
      if (m.certainty === 'tentative') tentative.push(m);
      else if (m.type !== 'tag' && m.type !== 'url' && m.type !== 'path') sure.add(labelKey(m.label));
    }
  for (const m of tentative) if (sure.has(labelKey(m.label))) m.certainty = 'weak';
}

/** Collects one entry's entities (deduplicated by type and key) and claims. */
class EntryBuilder {
  private readonly entities: EntityMention[] = [];
  /** Entity indexes by kind (a strong mention's type, "*" for weakly typed names, "name" for any typed name) and key. */
  private readonly byKey = new Map<string, Map<string, number>>();
  private readonly claims: ClaimMention[] = [];
  readonly aliases: ExtractedEntry['aliases'] = [];

  constructor(
    private readonly startLine: number,
    private readonly endLine: number,
    private readonly observed: string | null,
  ) {}

  entity(mention: EntityMention): number {
    const index = this.named(mention);
    // Every mention's evidence counts, also where two mentions are one entity of the entry.
    const vote = voteOf(mention);
    if (vote) (this.entities[index]!.votes ??= []).push(vote);
    return index;
  }

  private named(mention: EntityMention): number {
    const label = cleanLabel(mention.label).slice(0, 300);
    const key = labelKey(label);
    // Weakly typed names fold into a same-key entity of this entry whatever its type.
    const kind = mention.certainty === 'strong' ? mention.type : '*';
    const existing = this.indexOf(kind, key) ?? (mention.certainty !== 'strong' ? this.indexOf('name', key) : undefined);
    if (existing !== undefined) return existing;
    const untyped = mention.certainty === 'strong' && !['tag', 'url', 'path'].includes(mention.type) ? this.indexOf('*', key) : undefined;
    if (untyped !== undefined) {
      // The same name, typed by another mention in this entry ("Gamma uses Gamma").
      Object.assign(this.entities[untyped]!, { type: mention.type, certainty: 'strong' });
      this.remember(kind, key, untyped);
      this.remember('name', key, untyped);
      return untyped;
    }
    this.entities.push({ type: mention.type, label, certainty: mention.certainty, ...(mention.byNameList ? { byNameList: true } : {}) });
    const index = this.entities.length - 1;
    this.remember(kind, key, index);
    if (mention.certainty === 'strong' && !['tag', 'url', 'path'].includes(mention.type) && this.indexOf('name', key) === undefined) this.remember('name', key, index);
    return index;
  }

  private indexOf(kind: string, key: string): number | undefined {
    return this.byKey.get(kind)?.get(key);
  }

  private remember(kind: string, key: string, index: number): void {
    let keys = this.byKey.get(kind);
    if (!keys) this.byKey.set(kind, (keys = new Map()));
    keys.set(key, index);
  }

  claim(claim: ClaimMention): void {
    if (claim.subject === claim.object) return; // self-loops say nothing
    this.claims.push(claim);
  }

  done(): ExtractedEntry {
    return { startLine: this.startLine, endLine: this.endLine, observed: this.observed, entities: this.entities, claims: this.claims, aliases: this.aliases };
  }
}
