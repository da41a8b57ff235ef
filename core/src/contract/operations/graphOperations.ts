/** The knowledge graph: search, neighbourhoods, claims and the overview. */
import { z } from 'zod';
import { GraphClaim, GraphEntity, GraphFilters, GraphSlice } from '../records/graphRecords.js';
import type { OperationSpec } from './spec.js';

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
} as const satisfies Record<string, OperationSpec>;
