/**
 * Entities a question asks about, through the graph: the names it mentions (labels or aliases,
 * "the staging box" → stg-01) and the relation words around them ("who owns …" → the owner of
 * what it names). "who owns the staging box" answers Dana, whose label is nowhere in it.
 */
import type Database from 'better-sqlite3';
import type { GraphEntityAnswer, GraphFilters } from '../contract/index.js';
import { STOPWORDS } from '../platform/text/stopwords.js';
import { claimCondition, entityCondition } from './graphFilters.js';
import { claimId } from './graphRecords.js';
import { labelKey } from './labelKey.js';
import { MENTIONED_WITH } from './types.js';

/** A relation word of a question and the predicates it asks about (see relations.ts for how they are stated). */
interface RelationWord {
  pattern: RegExp;
  predicates: readonly string[];
}

/** Matched against the question's folded words joined by single spaces. */
const RELATION_WORDS: readonly RelationWord[] = [
  { pattern: /\b(?:own|owns|owned|owner|owners|owning|ownership)\b/, predicates: ['owns'] },
  { pattern: /\b(?:lead|leads|led|leader|leading|heads?|in charge of)\b/, predicates: ['leads'] },
  { pattern: /\bwork(?:s|ed|ing)? on\b/, predicates: ['works_on'] },
  { pattern: /\bapprov(?:e|es|ed|er|al|ing)\b/, predicates: ['approves'] },
  { pattern: /\b(?:use|uses|used|using|user|users)\b/, predicates: ['uses', 'prefers'] },
  { pattern: /\bprefer(?:s|red|ence)?\b/, predicates: ['prefers'] },
  { pattern: /\bdepend(?:s|ed|ing)?\b|\bdependenc/, predicates: ['depends_on'] },
  { pattern: /\b(?:run|runs|ran|running|deployed|hosted|hosts?|lives?) on\b|\bhost(?:s|ed|ing)?\b/, predicates: ['runs_on', 'hosted_on', 'moved_to'] },
  { pattern: /\b(?:mov(?:e|ed|es|ing)|migrat(?:e|ed|es|ion|ing))\b/, predicates: ['moved_to'] },
  { pattern: /\b(?:located|based|live|lives|lived) in\b|\bwhere\b/, predicates: ['located_in', 'lives_in', 'runs_on', 'hosted_on', 'moved_to'] },
  { pattern: /\bmembers?\b|\bjoin(?:ed|s)?\b|\bpart of\b/, predicates: ['member_of'] },
  { pattern: /\bdecid(?:e|ed|es|ing)\b|\bdecision/, predicates: ['decided'] },
  { pattern: /\breplac(?:e|ed|es|ing|ement)\b|\bswitch(?:ed)? (?:from|to)\b/, predicates: ['replaced'] },
];

/** Longest name a question can spell (words), and how many words of a question are read. */
const MAX_RUN_WORDS = 5;
const MAX_QUESTION_WORDS = 200;

/** A name the question spells: the entities called so (a note titled stg-01 and the host it names may be two) and where its words are. */
interface NamedSpan {
  entities: number[];
  start: number;
  end: number;
}

/** An alias may start with an article ("[[stg-01|the staging box]]"); other stopwords do not start a name. */
const ARTICLES = new Set(['the', 'a', 'an']);

export interface QuestionAnswer {
  entity: number;
  answer: GraphEntityAnswer;
}

export interface QuestionEntities {
  /** Entities reached through a relation word, the surest first (still valid, then stated most). */
  answers: QuestionAnswer[];
  /** Entities the question names, in the order it names them. */
  named: number[];
}

/** The question's words, folded as labels are, possessives dropped ("Dana's" → "dana"). */
function questionWords(text: string): string[] {
  return labelKey(text)
    .split(/[^\p{L}\p{N}._/@-]+/u)
    .map((w) => w.replace(/^[.@-]+|[.-]+$/g, '').replace(/['’]s$/, ''))
    .filter(Boolean)
    .slice(0, MAX_QUESTION_WORDS);
}

/**
 * Names the question spells, longest first and never overlapping: runs of up to five words that
 * are an entity's label or alias, not ending in a stopword nor starting with one but an article.
 */
function namedSpans(db: Database.Database, words: readonly string[], filters: GraphFilters | undefined): NamedSpan[] {
  const candidates = new Map<string, { start: number; end: number }[]>();
  for (let n = Math.min(MAX_RUN_WORDS, words.length); n >= 1; n--)
    for (let i = 0; i + n <= words.length; i++) {
      if ((STOPWORDS.has(words[i]!) && !(ARTICLES.has(words[i]!) && n > 1)) || STOPWORDS.has(words[i + n - 1]!)) continue;
      const run = words.slice(i, i + n).join(' ');
      const spans = candidates.get(run);
      if (spans) spans.push({ start: i, end: i + n });
      else candidates.set(run, [{ start: i, end: i + n }]);
    }
  if (candidates.size === 0) return [];
  const visible = entityCondition(filters);
  const rows = db
    .prepare(
      // Entities of the same label as one found count too (a note's title and the host it describes).
      `WITH m AS (
         SELECT key, id FROM graph_entities WHERE key IN (SELECT value FROM json_each(?))
         UNION SELECT key, entity_id FROM graph_aliases WHERE key IN (SELECT value FROM json_each(?))
       ), same AS (
         SELECT m.key, n.id FROM m JOIN graph_entities f ON f.id = m.id JOIN graph_entities n ON n.key = f.key
         UNION SELECT key, id FROM m
       )
       SELECT same.key, same.id FROM same JOIN graph_entities n ON n.id = same.id WHERE ${visible.sql}
       ORDER BY n.mentions DESC, n.id`,
    )
    .all(JSON.stringify([...candidates.keys()]), JSON.stringify([...candidates.keys()]), ...visible.params) as Array<{ key: string; id: number }>;
  const entitiesOf = new Map<string, number[]>();
  for (const row of rows) {
    const ids = entitiesOf.get(row.key);
    if (!ids) entitiesOf.set(row.key, [row.id]);
    else if (!ids.includes(row.id)) ids.push(row.id);
  }
  const taken = new Array<boolean>(words.length).fill(false);
  const spans: NamedSpan[] = [];
  // Longest runs first: "staging box" wins over "box" when both are names.
  for (const [run, places] of [...candidates].sort((a, b) => b[0].split(' ').length - a[0].split(' ').length)) {
    const entities = entitiesOf.get(run);
    if (!entities) continue;
    for (const { start, end } of places) {
      if (taken.slice(start, end).some(Boolean)) continue;
      for (let k = start; k < end; k++) taken[k] = true;
      spans.push({ entities, start, end });
    }
  }
  return spans.sort((a, b) => a.start - b.start);
}

/** Where each relation word starts, as a word index of the question. */
function relationWordsAt(words: readonly string[]): Array<{ at: number; predicates: readonly string[] }> {
  const text = words.join(' ');
  const starts: number[] = [];
  for (let i = 0, offset = 0; i < words.length; offset += words[i]!.length + 1, i++) starts.push(offset);
  const found: Array<{ at: number; predicates: readonly string[] }> = [];
  for (const word of RELATION_WORDS) {
    const global = new RegExp(word.pattern.source, 'g');
    for (let m = global.exec(text); m; m = global.exec(text)) {
      const at = starts.findLastIndex((s) => s <= m!.index);
      found.push({ at: Math.max(0, at), predicates: word.predicates });
    }
  }
  return found;
}

/**
 * The entities a question names, and those it asks for through a relation word: a name after the
 * relation word is its object ("who owns X": X's owners), a name before it its subject ("what
 * does X run on": where X runs); when that side has no such relation, the other side is tried.
 */
export function questionEntities(db: Database.Database, text: string, filters?: GraphFilters): QuestionEntities {
  const words = questionWords(text);
  const spans = namedSpans(db, words, filters);
  const named = [...new Set(spans.flatMap((s) => s.entities))];
  if (spans.length === 0) return { answers: [], named };
  const relationWords = relationWordsAt(words);
  if (relationWords.length === 0) return { answers: [], named };

  const cond = claimCondition(filters, 'c');
  const visible = entityCondition(filters, 'n');
  const related = (side: 'subject' | 'object', entity: number, predicates: readonly string[]) =>
    db
      .prepare(
        `SELECT c.id, c.predicate, c.${side === 'object' ? 'subject_id' : 'object_id'} AS other, c.valid_until AS validUntil
         FROM graph_claims c JOIN graph_entities n ON n.id = c.${side === 'object' ? 'subject_id' : 'object_id'}
         WHERE c.${side === 'object' ? 'object_id' : 'subject_id'} = ? AND c.object_id IS NOT NULL AND c.predicate != '${MENTIONED_WITH}'
           AND c.predicate IN (SELECT value FROM json_each(?)) AND ${cond.sql} AND ${visible.sql}
         ORDER BY c.valid_until IS NOT NULL, c.valid_until DESC, c.confidence DESC, c.id DESC`,
      )
      .all(entity, JSON.stringify(predicates), ...cond.params, ...visible.params) as Array<{ id: number; predicate: string; other: number; validUntil: string | null }>;
  const label = db.prepare('SELECT label FROM graph_entities WHERE id = ?').pluck();

  const answers: QuestionAnswer[] = [];
  const seen = new Set<number>();
  for (const relation of relationWords) {
    // The nearest names on each side of the relation word come first.
    const ordered = [...spans].sort((a, b) => Math.abs(a.start - relation.at) - Math.abs(b.start - relation.at));
    for (const span of ordered.flatMap((s) => s.entities.map((entity) => ({ entity, start: s.start })))) {
      const side = span.start > relation.at ? 'object' : 'subject';
      let namedAs: 'subject' | 'object' = side;
      let rows = related(namedAs, span.entity, relation.predicates);
      if (rows.length === 0) {
        namedAs = side === 'object' ? 'subject' : 'object';
        rows = related(namedAs, span.entity, relation.predicates);
      }
      for (const row of rows) {
        if (seen.has(row.other) || named.includes(row.other)) continue;
        seen.add(row.other);
        answers.push({
          entity: row.other,
          answer: { predicate: row.predicate, role: namedAs === 'object' ? 'subject' : 'object', through: label.get(span.entity) as string, claimId: claimId(row.id), validUntil: row.validUntil },
        });
      }
    }
  }
  // Still-valid relations before ended ones, whichever relation word found them.
  answers.sort((a, b) => Number(a.answer.validUntil !== null) - Number(b.answer.validUntil !== null));
  return { answers, named };
}
