/**
 * Model records as they are stored in `<dataDir>/models/models.json` and returned by the
 * store. Depends on zod and the contract only, so these schemas can move into the contract unchanged.
 */
import { z } from 'zod';
import { ModelRole } from '../contract/index.js';

export { ModelRole };
export const MODEL_ROLES: readonly ModelRole[] = ModelRole.options;

/** `model:<first 16 hex of the file's sha256>`: the same bytes always get the same id. */
export const ModelId = z.string().regex(/^model:[0-9a-f]{16}$/, 'must look like model:<16 hex digits>');
export type ModelId = z.infer<typeof ModelId>;

export const ModelRecord = z.object({
  id: ModelId,
  /** File name inside `<dataDir>/models/`. */
  file: z
    .string()
    .min(1)
    .refine((f) => !/[\\/]/.test(f) && f !== '.' && f !== '..', 'must be a plain file name'),
  role: ModelRole,
  /** `hf:<user>/<repo>/<file>`, an https URL, or the absolute local path it was added from. */
  source: z.string().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits'),
  size: z.number().int().nonnegative(),
  /** ISO 8601. */
  addedAt: z.string(),
});
export type ModelRecord = z.infer<typeof ModelRecord>;

export const ActiveModels = z.object({ embedding: ModelId.nullable(), chat: ModelId.nullable() });
export type ActiveModels = z.infer<typeof ActiveModels>;

export const ModelRegistryFile = z.object({
  version: z.literal(1),
  models: z.array(ModelRecord),
  active: ActiveModels,
});
export type ModelRegistryFile = z.infer<typeof ModelRegistryFile>;

/** A record as the store reports it (a superset of the contract's ModelInfo): where the file is, whether it is still there, whether it is in use. */
export const InstalledModel = ModelRecord.extend({
  path: z.string(),
  present: z.boolean(),
  active: z.boolean(),
});
export type InstalledModel = z.infer<typeof InstalledModel>;

export const ModelList = z.object({
  dir: z.string(),
  models: z.array(InstalledModel),
  active: ActiveModels,
});
export type ModelList = z.infer<typeof ModelList>;

export const DownloadProgress = z.object({
  /** Bytes on disk so far, including what an earlier, interrupted download left. */
  bytes: z.number().int().nonnegative(),
  total: z.number().int().nonnegative().nullable(),
  /** Smoothed transfer rate in bytes per second. */
  rate: z.number().nonnegative(),
  etaSeconds: z.number().nonnegative().nullable(),
});
export type DownloadProgress = z.infer<typeof DownloadProgress>;

/** One report of a running pull, shaped like the contract's `model-download` EngineEvent (minus `type`). */
export const ModelDownloadEvent = DownloadProgress.extend({
  /** The canonical source (`hf:<user>/<repo>/<file>` or the URL). */
  uri: z.string(),
  file: z.string(),
  role: ModelRole,
  /** True once, when the pull has finished (successfully or not). */
  done: z.boolean(),
});
export type ModelDownloadEvent = z.infer<typeof ModelDownloadEvent>;
