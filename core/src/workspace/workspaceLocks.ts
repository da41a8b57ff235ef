import path from 'node:path';

/**
 * Locks that guard a workspace live inside it, in `<workspace>/.reverie/locks/`, not in a data
 * folder: two processes with different `--data-dir`s on one workspace must still see each other,
 * and one folder reached by two paths (a symlink, a bind mount) still has one lock. The scanner,
 * the watcher and workspace paths skip every dot-folder, and importers only write into `memory/`,
 * so the locks are never indexed, watched or copied.
 */
/**
 * host: one host per workspace; dream: one sweep at a time; markdown: held for milliseconds by
 * every Reverie rewrite or append of the person's Markdown (sweeps, review, rollback, the
 * editor's save, agents' daily-note appends), so they never interleave.
 */
export type WorkspaceLockName = 'host' | 'dream' | 'markdown';

export function workspaceLockFile(workspaceRoot: string, name: WorkspaceLockName): string {
  return path.join(workspaceRoot, '.reverie', 'locks', `${name}.lock`);
}

/** Where Reverie up to 0.x kept a workspace's locks: its data folder, by workspace id. */
export function legacyDataDirLockFile(dataDir: string, workspaceId: string, name: 'host' | 'dream'): string {
  return path.join(dataDir, 'locks', name === 'host' ? `${workspaceId}.lock` : `${workspaceId}.${name}.lock`);
}
