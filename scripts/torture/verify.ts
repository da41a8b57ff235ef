/** The checks after a kill or a race: torn files, missing pre-images, lost lines, hangs. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export type Snapshot = Map<string, Buffer>;

/** Every Markdown file under `root` (relative path → bytes); folders starting with "." are skipped. */
export function snapshotMarkdown(root: string): Snapshot {
  const files: Snapshot = new Map();
  const walk = (dir: string) => {
    let entries: fs.Dirent[] = [];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory() && !entry.name.startsWith('.')) walk(abs);
      else if (entry.isFile() && entry.name.endsWith('.md')) files.set(path.relative(root, abs), fs.readFileSync(abs));
    }
  };
  walk(root);
  return files;
}

/**
 * A file is whole when it equals its before bytes, one of its known after bytes, or its before
 * bytes followed by complete lines (an append that finished). Anything else is torn.
 */
const sha = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

export function tornFiles(before: Snapshot, now: Snapshot, after: Snapshot[] = [], plannedHashes: ReadonlySet<string> = new Set()): string[] {
  const torn: string[] = [];
  for (const [rel, bytes] of now) {
    const was = before.get(rel);
    if (was && bytes.equals(was)) continue;
    if (after.some((a) => a.get(rel)?.equals(bytes))) continue;
    // Exactly the bytes a writer recorded it was about to put there (a dream run's write record): whole.
    if (plannedHashes.has(sha(bytes))) continue;
    const appended = was ? bytes.length > was.length && bytes.subarray(0, was.length).equals(was) : true;
    if (appended && bytes.length > 0 && bytes[bytes.length - 1] === 0x0a) continue;
    if (!was && bytes.length === 0) continue;
    torn.push(`${rel} (${was?.length ?? 0} → ${bytes.length} bytes)`);
  }
  for (const rel of before.keys()) if (!now.has(rel)) torn.push(`${rel} (vanished)`);
  return torn;
}


/** Hashes of every pre-image the engine kept (data/backups/pre-images/<workspace>/<file>). */
export function preImageHashes(dataDir: string): Set<string> {
  const hashes = new Set<string>();
  const base = path.join(dataDir, 'backups', 'pre-images');
  for (const ws of safeList(base)) {
    for (const name of safeList(path.join(base, ws))) {
      if (name.endsWith('.json') || name.endsWith('.tmp')) continue;
      try {
        hashes.add(sha(fs.readFileSync(path.join(base, ws, name))));
      } catch {
        /* removed while listed */
      }
    }
  }
  return hashes;
}

/** Curated files (MEMORY.md, USER.md) that changed without their before bytes kept as a pre-image. */
export function missingPreImages(before: Snapshot, now: Snapshot, dataDir: string): string[] {
  const kept = preImageHashes(dataDir);
  const missing: string[] = [];
  for (const rel of ['MEMORY.md', 'USER.md']) {
    const was = before.get(rel);
    const is = now.get(rel);
    if (!was || !is || was.equals(is)) continue;
    if (!kept.has(sha(was))) missing.push(rel);
  }
  return missing;
}

/** Appended lines (exact text, no newline) that are no longer in the file. */
export function lostLines(appended: string[], content: string): string[] {
  const present = new Set(content.split('\n'));
  return appended.filter((line) => !present.has(line));
}

function safeList(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/** The time an input of `bytes` may take: 5 s per MB, at least `minMs`. */
export function budgetMs(bytes: number, minMs = 5000): number {
  return Math.max(minMs, Math.ceil((bytes / 1_048_576) * 5000));
}

/** Classifies one run of the CLI on a hostile input. */
export function verdict(run: { code: number | null; stderr: string; timedOut: boolean }): 'ok' | 'hang' | 'crash' {
  if (run.timedOut) return 'hang';
  if (run.code === 2 || /^\s+at .+:\d+:\d+\)?$/m.test(run.stderr)) return 'crash';
  return 'ok';
}
