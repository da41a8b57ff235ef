import fs from 'node:fs';
import path from 'node:path';
import { ReverieError } from '../platform/errors.js';
import { writeFileAtomically } from '../platform/safeWrite.js';
import { ModelRegistryFile } from './modelSchema.js';

export const REGISTRY_FILE_NAME = 'models.json';

export function emptyRegistry(): ModelRegistryFile {
  return { version: 1, models: [], active: { embedding: null, chat: null } };
}

/** Reads `models/models.json`; a missing file is an empty registry, a damaged one a clear error naming it. */
export function readRegistry(file: string): ModelRegistryFile {
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyRegistry();
    throw new ReverieError('internal', `Could not read ${file}: ${(error as Error).message}`);
  }
  const fix = `Fix it, or delete it and add your models again with \`reverie models add <path>\` (the .gguf files in ${path.dirname(file)} are untouched).`;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new ReverieError('invalid-input', `The model registry ${file} is corrupt: not valid JSON (${(error as Error).message}). ${fix}`);
  }
  const parsed = ModelRegistryFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `"${issue.path.join('.')}"` : 'the top level';
    throw new ReverieError('invalid-input', `The model registry ${file} is corrupt: ${where} is invalid (${issue?.message ?? 'unknown'}). ${fix}`);
  }
  const registry = parsed.data;
  const ids = new Set(registry.models.map((m) => m.id));
  for (const [role, id] of Object.entries(registry.active)) {
    if (id !== null && !ids.has(id)) {
      throw new ReverieError('invalid-input', `The model registry ${file} is corrupt: the active ${role} model ${id} is not in its list of models. ${fix}`);
    }
  }
  return registry;
}

export function writeRegistry(file: string, registry: ModelRegistryFile): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomically(file, JSON.stringify(ModelRegistryFile.parse(registry), null, 2) + '\n');
}
