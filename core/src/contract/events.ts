/** Events (progress and lifecycle), pushed by a host to every front end. */
import { z } from 'zod';
import { DerivedProgress, SyncReport } from './records/indexRecords.js';

export const EngineEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('index-progress'),
    /** `migrate`: an index of an older layout is rewritten as it opens (done of total chunks); search waits for it. */
    phase: z.enum(['discover', 'index', 'sessions', 'embed', 'migrate']),
    done: z.number().int(),
    total: z.number().int(),
    path: z.string().nullable(),
  }),
  z.object({ type: z.literal('index-ready'), report: SyncReport }),
  z.object({ type: z.literal('index-error'), message: z.string() }),
  /** The derived work after `index-ready` (the graph) moved on: search already works meanwhile. */
  z.object({ type: z.literal('derived-progress'), progress: DerivedProgress }),
  /** The knowledge graph changed (it is updated after `index-ready`). */
  z.object({ type: z.literal('graph-updated'), extracted: z.number().int(), removed: z.number().int(), entities: z.number().int(), claims: z.number().int() }),
  z.object({
    type: z.literal('dream-progress'),
    runId: z.string(),
    phase: z.enum(['light', 'rem', 'deep', 'consolidate', 'write']),
    done: z.number().int(),
    total: z.number().int(),
  }),
  z.object({ type: z.literal('dream-complete'), runId: z.string(), status: z.enum(['ok', 'nothing-to-do', 'skipped', 'failed']), reason: z.string().nullable() }),
  z.object({ type: z.literal('files-changed'), paths: z.array(z.string()) }),
  z.object({ type: z.literal('index-paused'), paused: z.boolean() }),
  /** Desktop app: the engine process stopped unexpectedly, is restarting, or runs again. */
  z.object({ type: z.literal('engine-state'), state: z.enum(['crashed', 'restarting', 'running']), message: z.string().nullable() }),
  /** Desktop app: a menu or tray command the window carries out. */
  z.object({ type: z.literal('app-command'), command: z.enum(['focus-search', 'show-view']), view: z.string().max(32).nullable() }),
  z.object({
    type: z.literal('import-progress'),
    phase: z.enum(['checking', 'staging', 'backup', 'commit', 'done']),
    done: z.number().int(),
    total: z.number().int(),
    path: z.string().nullable(),
  }),
  z.object({
    type: z.literal('model-download'),
    uri: z.string(),
    bytes: z.number(),
    total: z.number().nullable(),
    /** Bytes per second, smoothed. */
    rate: z.number(),
    etaSeconds: z.number().nullable(),
    done: z.boolean(),
  }),
]);
export type EngineEvent = z.infer<typeof EngineEvent>;
