import fs from 'node:fs';
import path from 'node:path';

/** macOS and Windows watch a whole tree natively; Linux's inotify watches one folder at a time. */
const NATIVE_RECURSIVE = process.platform === 'darwin' || process.platform === 'win32';

/**
 * Reports the paths that change under a folder, and nothing else: one `fs.watch` per folder (or
 * one recursive watch where the platform has it). The sync compares content itself, so a path is
 * all it needs. chokidar, by contrast, lists and stats a whole folder again whenever anything in
 * it changes: with 100,000 notes in one folder that is ~0.5 s of CPU for every save.
 * Ignored paths (the workspace's rule: `.git`, `node_modules`…) are neither watched nor reported;
 * symbolic links are not followed.
 */
export class FolderTreeWatcher {
  private readonly watchers = new Map<string, fs.FSWatcher>();
  private closed = false;

  /**
   * @param isIgnored paths never watched nor reported (the caller's rule for the whole workspace)
   * @param isWatchedFile which files are reported (by name); folders that appear or vanish always are
   * @param onChange a changed path (absolute): a file, or a folder (appeared, vanished, or changed in a way the platform did not detail)
   * @param onLost events may have been lost (a watch limit, an error): the caller compares everything
   */
  constructor(
    private readonly root: string,
    private readonly isIgnored: (absPath: string) => boolean,
    private readonly isWatchedFile: (absPath: string) => boolean,
    private readonly onChange: (absPath: string) => void,
    private readonly onLost: () => void,
  ) {}

  /** Watches the tree as it is now (nothing while the root folder does not exist: see `restart`). */
  async start(): Promise<void> {
    if (NATIVE_RECURSIVE) this.watchFolder(this.root, true);
    else await this.watchTree(this.root);
  }

  /** The root folder was removed and made again: its old watches point at a folder that is gone. */
  async restart(): Promise<void> {
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    await this.start();
  }

  /** Folders watched now (for status and tests). */
  get folders(): number {
    return this.watchers.size;
  }

  close(): void {
    this.closed = true;
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }

  private async watchTree(top: string): Promise<void> {
    const folders = [top];
    while (folders.length > 0 && !this.closed) {
      const folder = folders.pop()!;
      if (!this.watchFolder(folder, false)) continue;
      let entries: fs.Dirent[];
      try {
        entries = await fs.promises.readdir(folder, { withFileTypes: true });
      } catch (error) {
        // Gone again: its parent's watch reported that. Unreadable: the sync of the folder says so.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.onChange(folder);
        continue;
      }
      for (const entry of entries) {
        const child = path.join(folder, entry.name);
        if (entry.isDirectory() && !this.isIgnored(child)) folders.push(child);
      }
    }
  }

  /** False when the folder is already watched or cannot be (gone: nothing to report; anything else: events may be lost). */
  private watchFolder(folder: string, recursive: boolean): boolean {
    if (this.closed || this.watchers.has(folder)) return false;
    try {
      const watcher = fs.watch(folder, { recursive, persistent: true }, (_event, name) => this.onEvent(folder, name));
      watcher.on('error', () => {
        this.unwatch(folder);
        this.onLost();
      });
      this.watchers.set(folder, watcher);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.onLost();
      return false;
    }
  }

  private onEvent(folder: string, name: string | Buffer | null): void {
    if (this.closed) return;
    // No name: the platform did not say what changed in the folder, so the folder is compared.
    if (name === null) return this.onChange(folder);
    const changed = path.join(folder, name.toString());
    if (this.isIgnored(changed)) return;
    if (this.isWatchedFile(changed)) return this.onChange(changed);
    this.followFolder(changed);
  }

  /**
   * Another name: a folder that appeared is reported and watched with what it holds; one that
   * vanished (or anything gone: it may have been a folder) is reported and its watches closed.
   */
  private followFolder(changed: string): void {
    fs.lstat(changed, (error, stats) => {
      if (this.closed) return;
      if (error) {
        this.onChange(changed);
        const inside = changed + path.sep;
        for (const folder of [...this.watchers.keys()]) if (folder === changed || folder.startsWith(inside)) this.unwatch(folder);
      } else if (stats.isDirectory()) {
        this.onChange(changed);
        if (!NATIVE_RECURSIVE) void this.watchTree(changed);
      }
    });
  }

  private unwatch(folder: string): void {
    this.watchers.get(folder)?.close();
    this.watchers.delete(folder);
  }
}
