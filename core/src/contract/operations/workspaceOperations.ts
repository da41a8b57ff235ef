/** The workspace, its index, search, files and settings. */
import { z } from 'zod';
import { FileCoverage, SyncReport } from '../records/indexRecords.js';
import { MAX_SEARCH_BUDGET, SearchResult } from '../records/searchRecords.js';
import { Settings, SettingsPatch } from '../records/settingsRecords.js';
import { StatusOutput, WorkspaceInfo } from '../records/statusRecords.js';
import { GraphEntity } from '../records/graphRecords.js';
import { SourceKind, WorkspacePath } from '../vocabulary.js';

const MAX_QUERY_CHARS = 20_000;
const MAX_WRITE_BYTES = 16 * 1024 * 1024;
import type { OperationSpec } from './spec.js';

export const workspaceOperations = {
  status: {
    access: 'read',
    summary: 'Workspace, index state and per-file coverage.',
    input: z.object({}).strict(),
    output: StatusOutput,
  },
  'index.sync': {
    access: 'write',
    summary: 'Bring the index up to date with the Markdown files.',
    input: z
      .object({
        force: z.boolean().default(false),
        /**
         * When to answer: once search is ready (keywords and vectors; the graph goes on in the
         * background), or once the derived work is done too (the default).
         */
        until: z.enum(['search', 'all']).default('all'),
      })
      .strict(),
    output: SyncReport,
  },
  'index.pause': {
    access: 'write',
    summary: 'Pause or resume indexing; changes seen while paused are indexed on resume.',
    input: z.object({ paused: z.boolean() }).strict(),
    output: z.object({ paused: z.boolean() }),
  },
  'workspace.info': {
    access: 'read',
    summary: 'The open workspace, whether this is the first run, and workspaces that could be opened instead.',
    input: z.object({}).strict(),
    output: WorkspaceInfo,
  },
  'workspace.open': {
    access: 'write',
    summary: 'Choose the workspace the app opens (the host restarts its engine on it).',
    input: z
      .object({
        /** Absolute folder; null asks the person with a folder picker (desktop app only). */
        path: z.string().min(1).max(4096).nullable(),
        /** Create the folder with starter files when it does not exist. */
        create: z.boolean().default(false),
      })
      .strict(),
    output: z.object({
      root: z.string(),
      /** False when the person cancelled the picker or chose the open workspace again. */
      changed: z.boolean(),
      /** True when this host cannot switch by itself (`reverie serve`: start it again). */
      restartRequired: z.boolean(),
    }),
  },
  'memory.search': {
    access: 'read',
    summary: 'Search memory by keywords and meaning (hybrid: BM25 and vectors, fused), best passages first.',
    input: z
      .object({
        query: z.string().max(MAX_QUERY_CHARS, `query is longer than ${MAX_QUERY_CHARS} characters`),
        limit: z.number().int().min(1).max(100).default(10),
        sources: z.array(SourceKind).min(1).default(['memory', 'sessions']),
        /**
         * Characters the snippets may use together: the budget goes to the results' lines most likely
         * to hold the answer, whole, in rank order; results with none are left out. A result's
         * snippet may then pass the 700 characters of a whole result, up to the budget. Absent:
         * whole results.
         */
        budget: z
          .number()
          .int('budget must be a whole number of characters')
          .min(1, 'budget must be at least 1 character (leave it out for whole results)')
          .max(MAX_SEARCH_BUDGET, `budget is over ${MAX_SEARCH_BUDGET} characters: leave it out for whole results`)
          .optional(),
        /** Boost entries annotated `<!-- project: KEY -->` with this key. */
        project: z.string().min(1).max(200).optional(),
        /** Also return matching graph entities (a separate group; results stay chunk results). */
        graph: z.boolean().default(false),
        /**
         * Count this search as a recall for dreaming (the default). The window's type-ahead
         * searches pass false and record the query once it settles (Enter, an opened result,
         * or a pause in typing): one typed question is one look, not one per keystroke.
         */
        recall: z.boolean().default(true),
      })
      .strict(),
    output: z.object({ results: z.array(SearchResult), tookMs: z.number(), graph: z.array(GraphEntity).optional() }),
  },
  'files.list': {
    access: 'read',
    summary: 'Every discovered file with its coverage status.',
    input: z.object({}).strict(),
    output: z.object({ files: z.array(FileCoverage) }),
  },
  'files.read': {
    access: 'read',
    summary: 'Read one memory file with its content hash.',
    input: z.object({ path: WorkspacePath }).strict(),
    output: z.object({
      path: z.string(),
      text: z.string(),
      sha256: z.string(),
      mtimeMs: z.number(),
      size: z.number().int(),
    }),
  },
  'files.write': {
    access: 'write',
    summary: 'Save a memory file if it has not changed on disk since it was read.',
    input: z
      .object({
        path: WorkspacePath,
        text: z.string().refine((t) => t.length <= MAX_WRITE_BYTES, 'text is larger than 16 MB'),
        /** Hash of the content the editor started from; null to create a new file. */
        expectedSha256: z.string().regex(/^[0-9a-f]{64}$/).nullable(),
      })
      .strict(),
    output: z.object({ path: z.string(), sha256: z.string(), mtimeMs: z.number(), size: z.number().int() }),
  },
  'settings.get': {
    access: 'read',
    summary: 'Current settings.',
    input: z.object({}).strict(),
    output: Settings,
  },
  'settings.set': {
    access: 'write',
    summary: 'Change some settings.',
    input: z.object({ patch: SettingsPatch }).strict(),
    output: Settings,
  },
} as const satisfies Record<string, OperationSpec>;
