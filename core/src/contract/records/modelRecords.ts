/** Installed models (GGUF files under `<data>/models/`). */
import { z } from 'zod';

export const ModelRole = z.enum(['embedding', 'chat']);
export type ModelRole = z.infer<typeof ModelRole>;

export const ModelInfo = z.object({
  /** `model:<sha256 prefix>` */
  id: z.string(),
  /** File name inside `<data-dir>/models/`. */
  file: z.string(),
  role: ModelRole,
  /** The URI or local path it came from. */
  source: z.string(),
  sha256: z.string(),
  size: z.number().int(),
  addedAt: z.string(),
  active: z.boolean(),
});
export type ModelInfo = z.infer<typeof ModelInfo>;
