/**
 * The knowledge graph as the contract carries it: entities, claims (edges are claims whose
 * object is an entity), and the evidence lines behind every one. zod only.
 */
import { z } from 'zod';
import { OriginClass, SourceTool } from '../vocabulary.js';


/** The predicate of a co-mention: two entities named in the same entry (evidence, not a stated relation). */
export const MENTIONED_WITH = 'mentioned_with';

export const EntityType = z.enum(['person', 'project', 'organization', 'place', 'machine', 'tool', 'concept', 'tag', 'url', 'path', 'identifier']);
export type EntityType = z.infer<typeof EntityType>;

export const GraphEvidence = z.object({
  path: z.string(),
  /** 1-based, inclusive. */
  startLine: z.number().int().positive(),
  endLine: z.number().int().positive(),
  /** `chunk:<n>` when the lines are in the index. */
  chunkId: z.string().nullable(),
  dreamRun: z.string().nullable(),
  origin: OriginClass,
  /**
   * Extracted by the chat model (setting graph.modelExtraction), not by the rules: the model
   * alone named the entity in these lines, stated the claim, or (mentioned_with) named one of
   * the two entities. Such items go when the setting is turned off.
   */
  byModel: z.boolean(),
});
export type GraphEvidence = z.infer<typeof GraphEvidence>;

/** Why a search found an entity it does not name: a relation to one it does ("who owns the staging box" → owns stg-01). */
export const GraphEntityAnswer = z.object({
  predicate: z.string(),
  /** The found entity's side of the relation: `subject` (it owns what was named) or `object` (what was named runs on it). */
  role: z.enum(['subject', 'object']),
  /** The label of the entity the question named. */
  through: z.string(),
  /** `claim:<n>`: the relation, for graph.explain. */
  claimId: z.string(),
  /** Null while the relation is still valid. */
  validUntil: z.string().nullable(),
});
export type GraphEntityAnswer = z.infer<typeof GraphEntityAnswer>;

export const GraphEntity = z.object({
  /** `entity:<n>` */
  id: z.string(),
  type: EntityType,
  label: z.string(),
  aliases: z.array(z.string()),
  /** Distinct related entities. */
  degree: z.number().int(),
  sources: z.array(SourceTool),
  /** Least trusted origin among its evidence; untrusted entities are drawn as such. */
  origin: OriginClass,
  evidence: z.array(GraphEvidence).max(50),
  /** Searches only: set when the entity answers the question through a relation. */
  answer: GraphEntityAnswer.optional(),
});
export type GraphEntity = z.infer<typeof GraphEntity>;

export const GraphClaim = z.object({
  /** `claim:<n>`; a co-mention named in one entry only, which is not stored, is `claim:<a>-<b>` (its two entity numbers). */
  id: z.string(),
  subject: z.string(),
  predicate: z.string(),
  /** An entity id, for relations (edges); null for a literal value. */
  object: z.string().nullable(),
  literal: z.string().nullable(),
  confidence: z.number(),
  origin: OriginClass,
  /** When first observed, and when superseded (null: still valid). */
  validFrom: z.string().nullable(),
  validUntil: z.string().nullable(),
  /** How often the relation was seen (mentioned_with edges are weighted by it). */
  weight: z.number().int(),
  evidence: z.array(GraphEvidence).max(50),
});
export type GraphClaim = z.infer<typeof GraphClaim>;

export const GraphFilters = z
  .object({
    tools: z.array(SourceTool).min(1).optional(),
    origins: z.array(OriginClass).min(1).optional(),
    /** Only claims valid at this date (YYYY-MM-DD or ISO time). */
    validAt: z.string().min(10).max(40).optional(),
  })
  .strict();
export type GraphFilters = z.infer<typeof GraphFilters>;

export const GraphSlice = z.object({
  entities: z.array(GraphEntity),
  /**
   * Claims between two entities in `entities` (relations only): at most 4 per entity, each
   * entity's strongest first (stated relations, then by weight); graph.neighbors adds all of
   * its centre's.
   */
  edges: z.array(GraphClaim),
  /** What the node and edge budgets left out (of `totals`), so the view can say so. */
  omitted: z.object({ entities: z.number().int(), edges: z.number().int() }),
  totals: z.object({ entities: z.number().int(), claims: z.number().int() }),
  /**
   * 'included': every entity and edge carries its evidence lines (up to 50). 'omitted':
   * `evidence` is empty to keep thousands of items fast (graph.overview); weights, origins and
   * sources still count all evidence, and graph.neighbors / graph.explain give the lines.
   */
  evidence: z.enum(['included', 'omitted']),
});
export type GraphSlice = z.infer<typeof GraphSlice>;

/** A rule of the workspace's alias file (ALIASES.md): names merged into one entity, or two kept apart. */
export const GraphAliasRule = z.object({
  /** 1-based line in the file. */
  line: z.number().int().positive(),
  kind: z.enum(['merge', 'split']),
  /** merge: the first is the name shown, the rest are other names of it; split: the two names kept apart. */
  names: z.array(z.string()).min(2),
});
export type GraphAliasRule = z.infer<typeof GraphAliasRule>;

/** The alias file as the graph reads it: its rules, and each line it ignored with the reason (naming the file and line). */
export const GraphAliases = z.object({
  /** Workspace-relative: `ALIASES.md`. */
  path: z.string(),
  exists: z.boolean(),
  /** Of the file's bytes (null when it does not exist); 'unreadable' when it could not be read. */
  sha256: z.string().nullable(),
  rules: z.array(GraphAliasRule),
  /** `line` 0: the whole file (unreadable, too large, not UTF-8). */
  notices: z.array(z.object({ line: z.number().int().nonnegative(), message: z.string() })),
});
export type GraphAliases = z.infer<typeof GraphAliases>;
