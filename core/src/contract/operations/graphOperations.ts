/** The knowledge graph: search, neighbourhoods, claims, the overview, and the alias file's merges and splits. */
import { z } from 'zod';
import { GraphAliases, GraphClaim, GraphEntity, GraphFilters, GraphSlice } from '../records/graphRecords.js';
import type { OperationSpec } from './spec.js';

/** A name as the alias file holds it: one line, no rule characters. */
const AliasName = z
  .string()
  .trim()
  .min(1, 'a name may not be empty')
  .max(200)
  .regex(/^[^\n\r=≠<>]*$/, 'a name may not hold a line break, "=", "≠", "<" or ">"')
  .regex(/[\p{L}\p{N}]/u, 'a name needs a letter or digit');

export const graphOperations = {
  'graph.search': {
    access: 'read',
    summary: 'Entities of the knowledge graph by text (label or alias), with their evidence.',
    input: z.object({ text: z.string().min(1).max(500), limit: z.number().int().min(1).max(200).default(20), filters: GraphFilters.optional() }).strict(),
    output: z.object({ entities: z.array(GraphEntity) }),
  },
  'graph.neighbors': {
    access: 'read',
    summary: 'An entity (id, label or alias) and what it connects to, up to N hops, within a node budget.',
    input: z
      .object({
        entity: z.string().min(1).max(500),
        hops: z.number().int().min(1).max(3).default(1),
        limit: z.number().int().min(1).max(5000).default(200),
        filters: GraphFilters.optional(),
      })
      .strict(),
    output: GraphSlice.extend({
      center: GraphEntity,
      /** The centre's literal claims ("status: active", "timezone: Europe/Berlin"), surest first, with their evidence. */
      facts: z.array(GraphClaim),
    }),
  },
  'graph.explain': {
    access: 'read',
    summary: 'A claim and the lines that support it.',
    input: z.object({ claimId: z.string().min(1).max(100) }).strict(),
    output: GraphClaim.extend({ subjectLabel: z.string(), objectLabel: z.string().nullable(), lines: z.array(z.object({ path: z.string(), line: z.number().int(), text: z.string() })) }),
  },
  'graph.overview': {
    access: 'read',
    summary: 'The most connected part of the graph within a node budget (for the graph view).',
    input: z
      .object({
        limit: z.number().int().min(1).max(20_000).default(2_000),
        filters: GraphFilters.optional(),
        /**
         * Include "mentioned with" co-mentions (the default). false: stated relations only, and
         * entities ranked by the weight of their stated relations (the graph view's default).
         */
        mentionedWith: z.boolean().default(true),
      })
      .strict(),
    output: GraphSlice,
  },
  'graph.aliases': {
    access: 'read',
    summary: 'The alias file (ALIASES.md): names merged into one entity, names kept apart, and the lines it ignored with why.',
    input: z.object({}).strict(),
    output: GraphAliases,
  },
  'graph.merge': {
    access: 'write',
    summary: 'Merge names into one entity (the first is shown), written to ALIASES.md; refused with a reason for a cycle or a name in two groups.',
    input: z.object({ names: z.array(AliasName).min(2).max(20) }).strict(),
    output: GraphAliases,
  },
  'graph.split': {
    access: 'write',
    summary: 'Keep a name apart from an entity (taken out of its merge lines, "name != entity" written to ALIASES.md).',
    input: z.object({ name: AliasName, from: AliasName }).strict(),
    output: GraphAliases,
  },
} as const satisfies Record<string, OperationSpec>;
