/** Installed models: list, download, switch, remove. */
import { z } from 'zod';
import { ModelInfo, ModelRole } from '../records/modelRecords.js';
import type { OperationSpec } from './spec.js';

export const modelOperations = {
  'models.list': {
    access: 'read',
    summary: 'Installed models by role, and which one is active.',
    input: z.object({}).strict(),
    output: z.object({
      models: z.array(ModelInfo),
      active: z.object({ embedding: z.string().nullable(), chat: z.string().nullable() }),
      defaultEmbeddingUri: z.string(),
    }),
  },
  'models.pull': {
    access: 'write',
    summary: 'Download a model (hf:… or https://…) or add a local .gguf file.',
    input: z.object({ uri: z.string().min(1).max(2048), role: ModelRole.optional() }).strict(),
    output: ModelInfo,
  },
  'models.use': {
    access: 'write',
    summary: 'Make an installed model the active one for its role (re-embeds in the background).',
    input: z.object({ model: z.string().min(1).max(2048), role: ModelRole.optional() }).strict(),
    output: z.object({ active: z.object({ embedding: z.string().nullable(), chat: z.string().nullable() }) }),
  },
  'models.remove': {
    access: 'write',
    summary: 'Delete an installed model.',
    input: z.object({ model: z.string().min(1).max(2048) }).strict(),
    output: z.object({ removed: z.string() }),
  },
} as const satisfies Record<string, OperationSpec>;
