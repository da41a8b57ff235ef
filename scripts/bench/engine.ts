/** Thin helpers around the product's own engine (MemoryService), as every front end uses it. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EngineEvent, SearchResult, StatusOutput, SyncReport } from '../../core/src/contract/index.js';
import { MemoryService } from '../../core/src/engine/memoryService.js';
import { resolveExistingWorkspace } from '../../core/src/workspace/resolveWorkspace.js';
import { log } from './stats.js';
import { SyntheticCorpus } from './synthetic.js';

export interface BenchWorkspace {
  /** Parent temp folder holding both the workspace and the data dir. */
  root: string;
  workspace: string;
  dataDir: string;
}

/** A fresh temp workspace (with `memory/`) and its own data dir under os.tmpdir(). */
const liveTempRoots = new Set<string>();
let exitHookInstalled = false;

/** Removes every temp folder still registered (on normal exit, errors and Ctrl-C). */
export function removeAllTempWorkspaces(): void {
  for (const root of liveTempRoots) fs.rmSync(root, { recursive: true, force: true });
  liveTempRoots.clear();
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', removeAllTempWorkspaces);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      removeAllTempWorkspaces();
      process.exit(130);
    });
  }
}

export function makeTempWorkspace(label: string): BenchWorkspace {
  installExitHook();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `reverie-bench-${label}-`));
  liveTempRoots.add(root);
  const workspace = path.join(root, 'workspace');
  const dataDir = path.join(root, 'data');
  fs.mkdirSync(path.join(workspace, 'memory'), { recursive: true });
  fs.mkdirSync(dataDir, { recursive: true });
  return { root, workspace, dataDir };
}

/** Leaves a temp workspace on disk when the bench exits (no longer removed by the exit hook); returns it. */
export function keepTempWorkspace(ws: BenchWorkspace): BenchWorkspace {
  liveTempRoots.delete(ws.root);
  return ws;
}

export function removeTempWorkspace(ws: BenchWorkspace): void {
  fs.rmSync(ws.root, { recursive: true, force: true });
  liveTempRoots.delete(ws.root);
}

export class BenchEngine {
  readonly service: MemoryService;
  private progressEvery = 0;
  private lastProgressAt = 0;
  private readonly unsubscribe: () => void;

  constructor(readonly ws: BenchWorkspace) {
    this.service = new MemoryService({ dataDir: ws.dataDir, workspace: resolveExistingWorkspace(ws.workspace) });
    this.unsubscribe = this.service.onDidEmitEvent((event: EngineEvent) => this.onEvent(event));
  }

  /** Logs index progress to stderr at most every `everyMs` (0: never). */
  setProgress(everyMs: number): void {
    this.progressEvery = everyMs;
  }

  async sync(): Promise<{ report: SyncReport; seconds: number }> {
    this.lastProgressAt = performance.now();
    const started = performance.now();
    const report = await this.service.invoke('index.sync', { force: false });
    return { report, seconds: (performance.now() - started) / 1000 };
  }

  /** With a `budget`, the engine packs the snippets into that many characters. */
  async search(query: string, limit = 10, budget?: number): Promise<{ results: SearchResult[]; tookMs: number; wallMs: number }> {
    const started = performance.now();
    const out = await this.service.invoke('memory.search', { query, limit, sources: ['memory'], ...(budget === undefined ? {} : { budget }) });
    return { ...out, wallMs: performance.now() - started };
  }

  async status(): Promise<StatusOutput> {
    return await this.service.invoke('status', {});
  }

  /** Size of the SQLite index with its WAL, in bytes. */
  indexBytes(): number {
    let total = 0;
    for (const suffix of ['', '-wal', '-shm']) {
      try {
        total += fs.statSync(this.service.indexPath + suffix).size;
      } catch {
        /* absent */
      }
    }
    return total;
  }

  async close(): Promise<void> {
    this.unsubscribe();
    await this.service.close();
  }

  private onEvent(event: EngineEvent): void {
    if (this.progressEvery <= 0 || event.type !== 'index-progress' || event.phase !== 'index') return;
    const now = performance.now();
    if (now - this.lastProgressAt < this.progressEvery) return;
    this.lastProgressAt = now;
    log(`  … indexed ${event.done}/${event.total} files`);
  }
}

/** Writes the synthetic corpus into the service's workspace, a batch at a time, until its index holds `targetChunks` chunks. */
export async function syncSyntheticChunks(service: MemoryService, workspace: string, targetChunks: number): Promise<SyntheticCorpus> {
  const corpus = new SyntheticCorpus(workspace);
  corpus.writeRootFiles();
  while (service.status().index.chunks < targetChunks) {
    corpus.writeNotes(Math.max(50, Math.round(targetChunks / 10)));
    await service.sync(false);
  }
  return corpus;
}

