import type { EntityType, OriginClass } from '../contract/index.js';

/** An entity as one entry names it, before it is matched against the stored graph. */
export interface EntityMention {
  type: EntityType;
  label: string;
  /**
   * How sure the type is: `strong` (from syntax: a URL, a tag, a relation's object),
   * `weak` (a name; joins an existing entity of any named type with the same key) or
   * `tentative` (a sentence-initial word; kept only when the graph already knows it).
   */
  certainty: 'strong' | 'weak' | 'tentative';
  /** Named by the chat model (validated against the entry's text), not by the rules. */
  byModel?: boolean;
  /** Typed only by a list or by the name's shape: a common first name ("Charlotte": the weakest person evidence), a domain ("dana.dev", a host's shape). */
  byNameList?: boolean;
  /** What this mention itself says the name is (typeVotes.ts): stored per file, summed over the workspace. */
  votes?: TypeVote[];
}

/**
 * One mention's evidence of a name's type: the words around it (`words`: "Kiri said", "flew to
 * Kiri", the role a relation gives it), only the list of first names (`names`), or a weak hint
 * ("with Kiri", "in Kiri") that counts only where nothing stronger speaks.
 */
export interface TypeVote {
  type: EntityType;
  kind: TypeVoteKind;
}
export type TypeVoteKind = 'words' | 'names' | 'hint';

/** Indexes into the entry's `entities`. */
export interface ClaimMention {
  subject: number;
  predicate: string;
  object: number | null;
  literal: string | null;
  confidence: number;
  /** Stated by the chat model, not by the rules. */
  byModel?: boolean;
}

export interface AliasMention {
  entity: number;
  alias: string;
}

export interface ExtractedEntry {
  startLine: number;
  endLine: number;
  /** YYYY-MM-DD (or ISO) when the entry was observed. */
  observed: string | null;
  entities: EntityMention[];
  claims: ClaimMention[];
  aliases: AliasMention[];
}

/** Where an entry's lines came from, read from provenance columns. */
export interface EntryProvenance {
  origin: OriginClass;
  dreamRun: string | null;
  chunkId: number | null;
}

/**
 * Where a subject is: a service runs on one host, a person lives in one place, at a time.
 * A later claim of this family ends the earlier one whatever the wording ("moved to", "runs on").
 */
export const WHERE_FAMILY: readonly string[] = ['moved_to', 'runs_on', 'hosted_on', 'lives_in', 'located_in'];
/** Who holds the object: a thing has one owner and one lead at a time ("owned by", "led by"). */
export const HOLDER_PREDICATES: readonly string[] = ['owns', 'leads'];
/** Predicates whose newer claim ends an older one (of the same subject, or for holders the same object). */
export const FUNCTIONAL_PREDICATES: ReadonlySet<string> = new Set([...WHERE_FAMILY, ...HOLDER_PREDICATES, 'works_at']);

export { MENTIONED_WITH } from '../contract/index.js';
