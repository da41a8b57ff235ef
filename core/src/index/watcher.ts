import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { MEMORY_DIR, isIgnoredDirName, isMarkdownName } from '../workspace/layout.js';

export interface WatchOptions {
  workspaceRoot: string;
  extraPaths: readonly string[];
  /** Agent tools' home folders whose `*.jsonl` transcripts are ingested. */
  transcriptRoots?: readonly string[];
  debounceMs: number;
  /**
   * Every this many ms every file is compared anyway (default 15 minutes): a batch syncs only
   * the paths it names, so an event the platform dropped without an error would otherwise leave
   * a note stale until the next start. A full comparison of 100,000 files costs ~3.5 s of CPU.
   */
  fullCompareEveryMs?: number;
  /** A debounced batch: the changed files and folders (absolute), or 'everything' when the watcher may have missed some. */
  onDidChangeFiles: (changed: ReadonlySet<string> | 'everything') => void;
}

const FULL_COMPARE_EVERY_MS = 15 * 60_000;

/**
 * Watches the memory files (root files, memory/**, extra paths) and reports changes in
 * debounced batches, so a burst of saves triggers one sync of the paths it touched. A rename is
 * its two paths; a folder added or removed is the folder (synced whole); a watcher error asks
 * for every file to be compared, since events may have been lost.
 */
export class MemoryWatcher {
  private readonly watchers: FSWatcher[] = [];
  private pending: Set<string> | 'everything' = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private fullCompare: NodeJS.Timeout | null = null;

  constructor(private readonly options: WatchOptions) {}

  async start(): Promise<void> {
    const { workspaceRoot, extraPaths } = this.options;
    const ignored = (p: string): boolean => {
      const rel = path.relative(workspaceRoot, p);
      const parts = rel.startsWith('..') ? p.split(path.sep) : rel.split(path.sep);
      return parts.some((part) => part !== '' && isIgnoredDirName(part) && part !== '..');
    };
    const common = { ignoreInitial: true, followSymlinks: false, ignored, awaitWriteFinish: { stabilityThreshold: 150, pollInterval: 50 } };
    this.watchers.push(watch(workspaceRoot, { ...common, depth: 0 }));
    this.watchers.push(watch(path.join(workspaceRoot, MEMORY_DIR), common));
    for (const extra of extraPaths) this.watchers.push(watch(path.resolve(workspaceRoot, extra), common));
    const isWatched = (p: string): boolean => isMarkdownName(p) || p.endsWith('.jsonl');
    for (const root of this.options.transcriptRoots ?? []) {
      // Transcripts only: a tool's home folder also holds caches and logs we never read.
      // (~/.claude is itself a dot-folder: only dot-folders inside the root are skipped.)
      const insideRoot = (p: string): string[] => path.relative(root, p).split(path.sep);
      this.watchers.push(
        watch(root, {
          ...common,
          depth: 6,
          awaitWriteFinish: false,
          ignored: (p, stats) => insideRoot(p).some((part) => part.startsWith('.') && part !== '..') || Boolean(stats?.isFile() && !p.endsWith('.jsonl')),
        }),
      );
    }
    for (const w of this.watchers) {
      for (const event of ['add', 'change', 'unlink'] as const) {
        w.on(event, (p: string) => isWatched(p) && this.queue(p));
      }
      w.on('addDir', (p: string) => this.queue(p));
      w.on('unlinkDir', (p: string) => this.queue(p));
      // A vanished folder or an exhausted watch limit: not fatal, but events may be lost, so every file is compared.
      w.on('error', () => this.queue('everything'));
    }
    await Promise.all(this.watchers.map((w) => new Promise<void>((resolve) => w.once('ready', () => resolve()))));
    this.fullCompare = setInterval(() => this.queue('everything'), this.options.fullCompareEveryMs ?? FULL_COMPARE_EVERY_MS);
    this.fullCompare.unref();
  }

  private queue(absPath: string | 'everything'): void {
    if (absPath === 'everything') this.pending = 'everything';
    else if (this.pending !== 'everything') this.pending.add(absPath);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      const batch = this.pending;
      this.pending = new Set();
      this.options.onDidChangeFiles(batch);
    }, this.options.debounceMs);
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    if (this.fullCompare) clearInterval(this.fullCompare);
    await Promise.all(this.watchers.map((w) => w.close()));
    this.watchers.length = 0;
  }
}
