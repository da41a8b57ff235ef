/** Settings as stored in `<data>/settings.json` and changed through `settings.set`. */
import { z } from 'zod';
import { transcriptTools } from '../tools.js';
import { TranscriptTool } from '../vocabulary.js';
import { DEFAULT_DREAM_SETTINGS, DreamSettings } from './dreamRecords.js';

/** Each transcript tool's home folder whose transcripts are ingested (null: not ingested). */
export const SessionHomes = z.record(TranscriptTool, z.string().nullable());
export type SessionHomes = z.infer<typeof SessionHomes>;

/** The knowledge graph: chat-model extraction on top of the deterministic one (off by default). */
export const GraphSettings = z.object({
  /** Ask the active chat model for more entities and relations; every item must cite lines that name it, or it is dropped. */
  modelExtraction: z.boolean(),
  /** Bound on one extraction prompt to the chat model; the deterministic graph stands whatever happens. */
  modelTimeoutSeconds: z.number().positive().max(600),
});
export type GraphSettings = z.infer<typeof GraphSettings>;

export const Settings = z.object({
  /** Absolute path of the workspace chosen at first run. */
  workspace: z.string().nullable(),
  /** Extra folders or `.md` files indexed as memory, absolute or relative to the workspace. */
  extraPaths: z.array(z.string()),
  /** Files larger than this are skipped as `too large`. */
  maxFileSizeMB: z.number().positive().max(1024),
  /** Watch the workspace for changes while a host runs. */
  watch: z.boolean(),
  /** How keyword and vector candidates are combined: weighted sum (0.7 vector / 0.3 text) or reciprocal-rank fusion. */
  fusion: z.enum(['weighted', 'rrf']),
  /** Agent tools' home folders whose transcripts are ingested, by tool id (null: not ingested). */
  sessions: SessionHomes,
  /** Transcripts larger than this are skipped as `too large`. */
  maxTranscriptSizeMB: z.number().positive().max(65536),
  /** Dreaming: schedule, review-before-writing, gates and budgets. */
  dreaming: DreamSettings,
  graph: GraphSettings,
  /** The person has seen the first-run welcome (workspace choice, imports). */
  firstRunDone: z.boolean(),
});
export type Settings = z.infer<typeof Settings>;

export const DEFAULT_SETTINGS: Settings = {
  workspace: null,
  extraPaths: [],
  maxFileSizeMB: 16,
  watch: true,
  fusion: 'weighted',
  sessions: Object.fromEntries(transcriptTools().map((tool) => [tool.id, null])),
  maxTranscriptSizeMB: 512,
  dreaming: DEFAULT_DREAM_SETTINGS,
  graph: { modelExtraction: false, modelTimeoutSeconds: 60 },
  firstRunDone: false,
};

/** A settings change: top-level keys replace, `sessions`, `dreaming` and `graph` are merged key by key. */
export const SettingsPatch = Settings.partial()
  .extend({
    sessions: z.partialRecord(TranscriptTool, z.string().nullable()).optional(),
    dreaming: DreamSettings.partial().strict().optional(),
    graph: GraphSettings.partial().strict().optional(),
  })
  .strict();
export type SettingsPatch = z.infer<typeof SettingsPatch>;
