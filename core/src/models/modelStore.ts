import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ReverieError } from '../platform/errors.js';
import { Emitter } from '../platform/events.js';
import type { Logger } from '../platform/log/logger.js';
import { processLogger } from '../platform/log/processLog.js';
import { sha256Hex } from '../platform/hash.js';
import { downloadFile, partPathFor, type DownloadOptions } from './download.js';
import type { DownloadProgress } from './downloadProgress.js';
import { checkLocalModelFile, copyAndHash, GGUF_MAGIC, sha256OfFile } from './localModelFile.js';
import { readRegistry, REGISTRY_FILE_NAME, writeRegistry } from './modelRegistry.js';
import { MODEL_ROLES, type InstalledModel, type ModelDownloadEvent, type ModelList, type ModelRecord, type ModelRegistryFile, type ModelRole } from './modelSchema.js';
import { parseModelSource, resolveHfEndpoint } from './modelUri.js';

export interface ModelStoreOptions {
  dataDir: string;
  /** Base URL for `hf:` URIs; default `REVERIE_HF_ENDPOINT`, then https://huggingface.co. */
  hfEndpoint?: string;
  /** Reads `REVERIE_HF_ENDPOINT` and `HF_TOKEN` (an access token for gated models). */
  env?: NodeJS.ProcessEnv;
  /** Download tuning and test seams (timeouts, resumes, progress rate, the file-writing step). */
  download?: Pick<DownloadOptions, 'timeoutMs' | 'maxRedirects' | 'maxResumes' | 'progressIntervalMs' | 'fileSystem'>;
  now?: () => Date;
  logger?: Logger;
}

export interface InstallOptions {
  onProgress?: (progress: DownloadProgress) => void;
  signal?: AbortSignal;
  /** Expected sha256 of the download; otherwise the server's published checksum is used when it has one. */
  sha256?: string;
}

export interface InstallResult {
  model: InstalledModel;
  /** False when the model was already installed and nothing was copied or downloaded. */
  isNew: boolean;
}

export interface RemoveResult {
  removed: InstalledModel;
  /** Roles this model was active for; they now have no active model. */
  deactivated: ModelRole[];
}

/**
 * The models in `<dataDir>/models/` and which one is active per role, recorded in
 * `models.json`. Every change re-reads the registry first, so a CLI command and a running
 * host that both change models do not undo each other's work.
 */
export class ModelStore {
  readonly dir: string;
  readonly registryFile: string;
  private readonly hfEndpoint: string;
  private readonly hfToken: string | undefined;
  private readonly pulls = new Map<string, { controller: AbortController; done: Promise<InstallResult> }>();
  private readonly log: Logger;
  private readonly changeEmitter = new Emitter<ModelList>({ onListenerError: (error) => this.log.error('A model-list listener failed', { error }) });
  private readonly progressEmitter = new Emitter<ModelDownloadEvent>({ onListenerError: (error) => this.log.error('A download-progress listener failed', { error }) });

  /** Fires with the new list after a model is added, activated or removed. */
  readonly onDidChangeModels = this.changeEmitter.event;
  /** Fires for every progress report of every pull, whoever started it, then once with `done: true`. */
  readonly onDidProgressDownload = this.progressEmitter.event;

  constructor(private readonly options: ModelStoreOptions) {
    const env = options.env ?? process.env;
    this.log = options.logger ?? processLogger('models');
    this.dir = path.join(options.dataDir, 'models');
    this.registryFile = path.join(this.dir, REGISTRY_FILE_NAME);
    this.hfEndpoint = resolveHfEndpoint(options.hfEndpoint, env);
    this.hfToken = env.HF_TOKEN || env.HUGGING_FACE_HUB_TOKEN || undefined;
  }

  list(): ModelList {
    const registry = readRegistry(this.registryFile);
    return { dir: this.dir, models: registry.models.map((m) => this.describe(m, registry)), active: registry.active };
  }

  /** The installed model an id, file name, source URI or path refers to, or null. */
  find(ref: string): InstalledModel | null {
    const registry = readRegistry(this.registryFile);
    const record = this.findRecord(registry, ref);
    return record ? this.describe(record, registry) : null;
  }

  /** The active model for a role, or null when none is chosen. Check `present` before loading it. */
  activeModel(role: ModelRole): InstalledModel | null {
    const registry = readRegistry(this.registryFile);
    const id = registry.active[role];
    const record = id ? registry.models.find((m) => m.id === id) : undefined;
    return record ? this.describe(record, registry) : null;
  }

  /** Copies a local `.gguf` into the models folder. The first model of a role becomes its active one. */
  async add(localPath: string, role?: ModelRole, options: Omit<InstallOptions, 'sha256'> = {}): Promise<InstallResult> {
    const source = path.resolve(localPath);
    const size = checkLocalModelFile(source);
    fs.mkdirSync(this.dir, { recursive: true });

    // Re-adding a file we already have costs one read instead of a full copy.
    const known = readRegistry(this.registryFile).models.find((m) => m.source === source && m.size === size);
    if (known && fs.existsSync(this.pathOf(known))) {
      const sha256 = await sha256OfFile(source);
      if (sha256 === known.sha256) return this.register(known, role, { kind: 'registered' });
    }

    if (this.isInsideModelsDir(source)) {
      const sha256 = await sha256OfFile(source);
      return this.register(this.newRecord(path.basename(source), role, source, sha256, size), role, { kind: 'in-place' });
    }

    const temp = path.join(this.dir, `.${path.basename(source)}.${randomBytes(4).toString('hex')}.tmp`);
    const copied = await copyAndHash(source, temp, {
      onProgress: options.onProgress,
      signal: options.signal,
      fileSystem: this.options.download?.fileSystem,
      progressIntervalMs: this.options.download?.progressIntervalMs,
    });
    return this.register(this.newRecord(path.basename(source), role, source, copied.sha256, copied.size), role, { kind: 'temp', path: temp });
  }

  /**
   * Downloads a model (`hf:` URI or https URL) into the models folder, resuming an earlier
   * partial download; a local path is added instead. Pulling an installed source is a no-op.
   */
  async pull(uriOrPath: string, role?: ModelRole, options: InstallOptions = {}): Promise<InstallResult> {
    const source = parseModelSource(uriOrPath, { hfEndpoint: this.hfEndpoint });
    if (source.kind === 'local') return this.add(source.path, role, options);

    const registry = readRegistry(this.registryFile);
    const installed = registry.models.find((m) => m.source === source.uri && fs.existsSync(this.pathOf(m)));
    if (installed) return this.register(installed, role, { kind: 'registered' });

    const file = this.fileNameForDownload(registry, source.fileName, source.uri);
    const running = this.pulls.get(file);
    if (running) return running.done;

    const controller = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
    const newRole = role ?? 'embedding';
    let last: DownloadProgress = { bytes: 0, total: null, rate: 0, etaSeconds: null };
    const report = (progress: DownloadProgress, done: boolean) => this.progressEmitter.fire({ ...progress, uri: source.uri, file, role: newRole, done });
    const done = (async () => {
      try {
        const result = await downloadFile({
          ...this.options.download,
          url: source.url,
          dest: path.join(this.dir, file),
          sha256: options.sha256,
          magic: GGUF_MAGIC,
          signal,
          headers: this.authHeadersFor(source.url),
          onProgress: (progress) => {
            last = progress;
            options.onProgress?.(progress);
            report(progress, false);
          },
        });
        return this.register(this.newRecord(file, newRole, source.uri, result.sha256, result.size), newRole, { kind: 'downloaded' });
      } finally {
        report(last, true);
      }
    })();
    this.pulls.set(file, { controller, done });
    try {
      return await done;
    } finally {
      this.pulls.delete(file);
    }
  }

  /** Cancels a running pull (by file name or source URI); its `.part` file is kept for resume. */
  cancelPull(ref: string): boolean {
    for (const [file, pull] of this.pulls) {
      if (file === ref || this.sourceMatches(ref, file)) {
        pull.controller.abort();
        return true;
      }
    }
    return false;
  }

  /** Makes an installed model the active one for its role (or for `role`, which must match). */
  use(ref: string, role?: ModelRole): InstalledModel {
    const registry = readRegistry(this.registryFile);
    const record = this.findRecord(registry, ref);
    if (!record) throw this.notInstalled(ref, registry);
    const target = role ?? record.role;
    if (record.role !== target) {
      throw new ReverieError('invalid-input', `${record.file} is installed as a ${record.role} model, not a ${target} model; to use it as one, remove it and add it again with --role ${target}.`);
    }
    if (!fs.existsSync(this.pathOf(record))) {
      throw new ReverieError('not-found', `The file of ${record.id} (${this.pathOf(record)}) is missing; pull or add ${record.source} again.`);
    }
    registry.active[target] = record.id;
    this.save(registry);
    return this.describe(record, registry);
  }

  /** Deletes a model's file and entry; a role it was active for then has no active model. */
  remove(ref: string): RemoveResult {
    const registry = readRegistry(this.registryFile);
    const record = this.findRecord(registry, ref);
    if (!record) throw this.notInstalled(ref, registry);
    const removed = this.describe(record, registry);
    const shared = registry.models.some((m) => m.id !== record.id && m.file === record.file);
    if (!shared) {
      fs.rmSync(this.pathOf(record), { force: true });
      fs.rmSync(partPathFor(this.pathOf(record)), { force: true });
    }
    registry.models = registry.models.filter((m) => m.id !== record.id);
    const deactivated = MODEL_ROLES.filter((r) => registry.active[r] === record.id);
    for (const r of deactivated) registry.active[r] = null;
    this.save(registry);
    return { removed: { ...removed, active: false, present: false }, deactivated };
  }

  pathOf(record: Pick<ModelRecord, 'file'>): string {
    return path.join(this.dir, record.file);
  }

  // -------------------------------------------------------------------------------------

  /**
   * Records a model whose bytes are in place, and makes it the role's active model if the
   * role has none. Idempotent: the same bytes keep their existing entry.
   */
  private register(candidate: ModelRecord, role: ModelRole | undefined, placement: Placement): InstallResult {
    const registry = readRegistry(this.registryFile);
    const existing = registry.models.find((m) => m.id === candidate.id);
    const wanted = role ?? existing?.role ?? 'embedding';
    if (existing && existing.role !== wanted) {
      this.discard(candidate, existing, placement);
      throw new ReverieError('conflict', `${existing.file} is already installed as a ${existing.role} model (${existing.id}); remove it first to install it as a ${wanted} model.`);
    }
    const isFreshDownloadOfSameFile = placement.kind === 'downloaded' && existing?.file === candidate.file;
    if (existing && fs.existsSync(this.pathOf(existing)) && !isFreshDownloadOfSameFile) {
      this.discard(candidate, existing, placement);
      return { model: this.describe(existing, registry), isNew: false };
    }

    let record: ModelRecord = { ...candidate, role: wanted };
    if (placement.kind === 'temp') {
      record = { ...candidate, file: this.fileNameForCopy(registry, candidate.file, candidate.id) };
      fs.renameSync(placement.path, this.pathOf(record));
    }
    // An entry whose file went missing is replaced by the fresh copy.
    registry.models = [...registry.models.filter((m) => m.id !== record.id), record];
    if (registry.active[wanted] === null) registry.active[wanted] = record.id;
    this.save(registry);
    return { model: this.describe(record, registry), isNew: true };
  }

  /** Drops bytes that turned out to duplicate an installed model (never a file the person put in models/). */
  private discard(candidate: ModelRecord, existing: ModelRecord, placement: Placement): void {
    if (placement.kind === 'temp') fs.rmSync(placement.path, { force: true });
    if (placement.kind === 'downloaded' && candidate.file !== existing.file) fs.rmSync(this.pathOf(candidate), { force: true });
  }

  private newRecord(file: string, role: ModelRole | undefined, source: string, sha256: string, size: number): ModelRecord {
    return { id: `model:${sha256.slice(0, 16)}`, file, role: role ?? 'embedding', source, sha256, size, addedAt: (this.options.now?.() ?? new Date()).toISOString() };
  }

  private save(registry: ModelRegistryFile): void {
    writeRegistry(this.registryFile, registry);
    this.changeEmitter.fire({ dir: this.dir, models: registry.models.map((m) => this.describe(m, registry)), active: registry.active });
  }

  private describe(record: ModelRecord, registry: ModelRegistryFile): InstalledModel {
    const file = this.pathOf(record);
    return { ...record, path: file, present: fs.existsSync(file), active: registry.active[record.role] === record.id };
  }

  private findRecord(registry: ModelRegistryFile, ref: string): ModelRecord | null {
    const text = ref.trim();
    const newest = (matches: ModelRecord[]) => matches.sort((a, b) => b.addedAt.localeCompare(a.addedAt))[0] ?? null;
    const direct = registry.models.filter((m) => m.id === text || m.sha256 === text.toLowerCase() || m.file === text || m.source === text);
    if (direct.length > 0) return newest(direct);
    let canonical: string;
    try {
      const parsed = parseModelSource(text, { hfEndpoint: this.hfEndpoint });
      canonical = parsed.kind === 'local' ? parsed.path : parsed.uri;
    } catch (error) {
      // Not a model source either: no model matches (the caller says which are installed).
      this.log.debug('A model reference is no model source', { ref: text, error });
      return null;
    }
    return newest(registry.models.filter((m) => m.source === canonical || this.pathOf(m) === canonical));
  }

  private notInstalled(ref: string, registry: ModelRegistryFile): ReverieError {
    const names = registry.models.map((m) => m.file);
    const installed = names.length > 0 ? `installed: ${names.join(', ')}` : 'no models are installed';
    return new ReverieError('not-found', `No installed model matches "${ref}" (${installed}). Install it first with \`reverie models pull ${ref}\`.`);
  }

  /** Downloads keep their URL's file name unless another source already has it; the name stays stable so a `.part` can resume. */
  private fileNameForDownload(registry: ModelRegistryFile, fileName: string, source: string): string {
    const name = safeFileName(fileName);
    const taken = registry.models.some((m) => m.file === name && m.source !== source) || (fs.existsSync(path.join(this.dir, name)) && !this.isReferenced(registry, name));
    return taken ? withSuffix(name, sha256Hex(source).slice(0, 8)) : name;
  }

  private fileNameForCopy(registry: ModelRegistryFile, fileName: string, id: string): string {
    const name = safeFileName(fileName);
    const taken = this.isReferenced(registry, name) || fs.existsSync(path.join(this.dir, name)) || this.isDownloading(name);
    return taken ? withSuffix(name, id.slice('model:'.length, 'model:'.length + 8)) : name;
  }

  private isReferenced(registry: ModelRegistryFile, file: string): boolean {
    return registry.models.some((m) => m.file === file);
  }

  private isDownloading(file: string): boolean {
    return this.pulls.has(file) || fs.existsSync(partPathFor(path.join(this.dir, file)));
  }

  private isInsideModelsDir(file: string): boolean {
    try {
      return fs.realpathSync(path.dirname(file)) === fs.realpathSync(this.dir);
    } catch (error) {
      this.log.debug('A model path could not be resolved', { file, error });
      return false;
    }
  }

  private sourceMatches(ref: string, file: string): boolean {
    try {
      const parsed = parseModelSource(ref, { hfEndpoint: this.hfEndpoint });
      return parsed.kind === 'remote' && this.fileNameForDownload(readRegistry(this.registryFile), parsed.fileName, parsed.uri) === file;
    } catch (error) {
      this.log.debug('A model reference is no download source', { ref, error });
      return false;
    }
  }

  private authHeadersFor(url: string): Record<string, string> | undefined {
    if (!this.hfToken) return undefined;
    return new URL(url).origin === new URL(this.hfEndpoint).origin ? { authorization: `Bearer ${this.hfToken}` } : undefined;
  }
}

/** Where a model's bytes are when it is registered. */
type Placement =
  | { kind: 'registered' } // an entry that already exists
  | { kind: 'temp'; path: string } // a copy, renamed to its final name on success
  | { kind: 'downloaded' } // already at its final name, fetched by this call
  | { kind: 'in-place' }; // a file the person put into models/ themselves

function safeFileName(name: string): string {
  const cleaned = name.replace(/[\\/:*?"<>|\0]/g, '_').replace(/^\.+/, '');
  return cleaned.length > 0 ? cleaned : 'model.gguf';
}

function withSuffix(name: string, suffix: string): string {
  const ext = path.extname(name);
  return `${name.slice(0, name.length - ext.length)}-${suffix}${ext}`;
}
