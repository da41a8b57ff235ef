import fs from 'node:fs';
import path from 'node:path';
import { ReverieError } from '../platform/errors.js';
import { sha256Hex } from '../platform/hash.js';
import { detectImportSource, type DetectOptions } from './detect.js';
import { destinationProblem, importDestination, symlinkedFolderOnPath } from './importPaths.js';
import { readSourceFile } from './readSource.js';
import type { ImportItemStatus, ImportPlan, ImportPlanItem, ImportSourceSpec } from './types.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('importers');

export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_FILES_PER_COLLECTION = 2000;

export interface PlanImportOptions extends DetectOptions {
  workspaceRoot: string;
  sources: readonly ImportSourceSpec[];
  maxFileBytes?: number;
  maxFilesPerCollection?: number;
  now?: () => Date;
}

/**
 * Lists every file an import would copy, where it would go, and whether that destination is
 * free, identical or different. Reads sources, writes nothing.
 */
export async function planImport(options: PlanImportOptions): Promise<ImportPlan> {
  const { workspaceRoot, maxFileBytes = DEFAULT_MAX_FILE_BYTES, maxFilesPerCollection = DEFAULT_MAX_FILES_PER_COLLECTION } = options;
  const root = path.resolve(workspaceRoot);
  const items: ImportPlanItem[] = [];
  const notes: string[] = [];
  const sources: ImportSourceSpec[] = [];
  const destinations = new Set<string>();

  for (const spec of options.sources) {
    const detected = detectImportSource(spec, options);
    sources.push({ tool: spec.tool, home: detected.home });
    notes.push(...detected.notes.map((n) => `${spec.tool}: ${n}`));
    for (const collection of detected.collections) {
      if (collection.files.length > maxFilesPerCollection) {
        throw new ReverieError(
          'too-large',
          `${spec.tool} collection "${collection.name}" (${collection.origin}) holds ${collection.files.length} files, more than the ${maxFilesPerCollection} allowed in one collection; nothing was planned. Import a smaller folder or raise the limit.`,
        );
      }
      for (const file of collection.files) {
        const base = { tool: spec.tool, collection: collection.name, sourcePath: file.absPath };
        const destination = importDestination(spec.tool, collection.name, file.relPath || path.basename(file.absPath));
        if (file.skipReason) {
          items.push({ ...base, size: 0, sha256: null, destination, status: 'skipped', reason: file.skipReason });
          continue;
        }
        const read = readSourceFile(file.absPath, maxFileBytes);
        if (read.kind === 'skipped') {
          items.push({ ...base, size: read.size, sha256: null, destination, status: 'skipped', reason: read.reason });
          continue;
        }
        const sha256 = sha256Hex(read.bytes);
        const problem = destinationProblem(destination) ?? symlinkedFolderOnPath(root, destination);
        if (problem) {
          items.push({ ...base, size: read.size, sha256, destination: null, status: 'skipped', reason: `rejected: ${problem}` });
        } else if (destinations.has(destination)) {
          items.push({ ...base, size: read.size, sha256, destination, status: 'skipped', reason: 'another file in this plan has the same destination' });
        } else {
          destinations.add(destination);
          items.push({ ...base, size: read.size, sha256, destination, ...destinationStatus(root, destination, read.bytes) });
        }
        if (items.length % 200 === 0) await yieldToEventLoop();
      }
    }
  }
  return {
    version: 1,
    createdAt: (options.now?.() ?? new Date()).toISOString(),
    workspaceRoot: root,
    sources,
    options: { maxFileBytes, maxFilesPerCollection, includeClaudeMd: options.includeClaudeMd ?? true },
    items,
    notes,
    fingerprint: planFingerprint(items),
  };
}

/** What is at the destination now: nothing, the same bytes, or something else. */
export function destinationStatus(workspaceRoot: string, destination: string, bytes: Uint8Array): { status: ImportItemStatus; reason: string | null } {
  const abs = path.join(workspaceRoot, ...destination.split('/'));
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(abs);
  } catch (error) {
    log.debug('An import destination does not exist yet', { destination, error });
    return { status: 'new', reason: null };
  }
  if (stat.isSymbolicLink()) return { status: 'skipped', reason: 'destination is a symlink; imports never write through symlinks' };
  if (!stat.isFile()) return { status: 'skipped', reason: 'destination exists and is not a file' };
  if (stat.size === bytes.length) {
    try {
      if (Buffer.from(bytes).equals(fs.readFileSync(abs))) return { status: 'unchanged', reason: 'already imported with identical content' };
    } catch (error) {
      log.debug('An import destination cannot be read', { destination, error });
      return { status: 'skipped', reason: 'destination exists and cannot be read' };
    }
  }
  return { status: 'conflict', reason: 'destination exists with different content' };
}

/** SHA-256 over each item's source path, size, content hash and destination, in plan order. */
export function planFingerprint(items: readonly ImportPlanItem[]): string {
  const lines = items.map((i) => [i.sourcePath, i.size, i.sha256 ?? '-', i.destination ?? '-'].join('\u0000'));
  return sha256Hex(lines.join('\n'));
}

export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
