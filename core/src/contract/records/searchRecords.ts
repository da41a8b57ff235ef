/** A search result as every front end receives it. */
import { z } from 'zod';
import { OriginClass, SessionKind, SourceKind } from '../vocabulary.js';
import { EntryKindSpan } from './indexRecords.js';

/** A whole result's snippet (no budget asked): what the Search view shows per result. */
export const MAX_SNIPPET_CHARS = 700;
/** A search's character budget: far more than any agent's context gives to memory. */
export const MAX_SEARCH_BUDGET = 100_000;

export const SearchResult = z.object({
  /** Typed record id, `chunk:<n>`. */
  id: z.string(),
  path: z.string(),
  source: SourceKind,
  /** 1-based, inclusive. */
  startLine: z.number().int().positive(),
  endLine: z.number().int().positive(),
  /**
   * The cited lines: at most MAX_SNIPPET_CHARS for a whole result; with a budget, the result's
   * chosen lines, which may take more of the budget than that (never more than the budget).
   */
  snippet: z.string().max(MAX_SEARCH_BUDGET),
  score: z.number(),
  /** Why this result matched: keyword (BM25), vector (embedding similarity), path or date in the file name. */
  matchedBy: z.array(z.enum(['keyword', 'vector', 'path', 'date'])),
  /** Provenance summary: the least trusted class of the cited text, and the session kind for transcripts. */
  origin: OriginClass.optional(),
  sessionKind: SessionKind.nullable().optional(),
  /**
   * The kinds of the entries in the cited lines, as the index stored them. Absent for transcripts,
   * older hosts, and a file whose kinds are still being derived (new or edited since; they follow
   * `index-ready` in the background, see status `derived.kinds`); an empty list: no entry there.
   */
  entryKinds: z.array(EntryKindSpan).max(50).optional(),
  /**
   * The same imported entry elsewhere (a Hermes entry repeated in two profiles): one result
   * stands for all copies, and these are the other places it is written.
   */
  alsoIn: z
    .array(z.object({ path: z.string(), startLine: z.number().int().positive(), endLine: z.number().int().positive() }))
    .max(50)
    .optional(),
  /** How the score was made, for the UI's "why this result" view. */
  breakdown: z
    .object({
      keyword: z.number().describe('BM25, normalised to 0–1 among the candidates'),
      vector: z.number().describe('cosine similarity of query and chunk embeddings'),
      fused: z.number(),
      fusion: z.enum(['weighted', 'rrf']),
      decay: z.number().describe('temporal decay multiplier for dated notes (1 = none)'),
      importance: z.number().describe('multiplier from <!-- importance: N -->'),
      trigger: z.number().describe('multiplier when the query contains a <!-- trigger: … --> phrase'),
      mmr: z.number().describe('diversity penalty applied by MMR (0 = none)'),
      passage: z.number().optional().describe('share of the query the cited lines cover (passage focus, 0–1)'),
      date: z.number().optional().describe('bonus for a note whose file-name date fits a date in the query'),
    })
    .optional(),
});
export type SearchResult = z.infer<typeof SearchResult>;
