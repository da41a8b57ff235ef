/** After every kill -9: files whole, pre-images kept, the database opens, `status` exits 0. */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { firstLine, runCli, type TrialWorkspace } from './harness.js';
import { missingPreImages, snapshotMarkdown, tornFiles, type Snapshot } from './verify.js';

/** Problems after a kill (empty when all is well). `mayChange` false: no Markdown byte may differ. */
export async function checkAfterKill(ws: TrialWorkspace, before: Snapshot, label: string, mayChange: boolean): Promise<string[]> {
  const problems: string[] = [];
  const now = snapshotMarkdown(ws.root);
  if (mayChange) {
    for (const torn of tornFiles(before, now, [], plannedWrites(ws.dataDir))) problems.push(`${label}: torn file ${torn}`);
    for (const rel of missingPreImages(before, now, ws.dataDir)) problems.push(`${label}: ${rel} changed with no pre-image of its old bytes`);
  } else {
    for (const [rel, bytes] of before) if (!now.get(rel)?.equals(bytes)) problems.push(`${label}: ${rel} changed (this writer never edits notes)`);
  }
  for (const db of sqliteFiles(ws.dataDir)) {
    try {
      const handle = new Database(db, { readonly: true, fileMustExist: true });
      const result = handle.pragma('quick_check', { simple: true });
      handle.close();
      if (result !== 'ok') problems.push(`${label}: ${path.relative(ws.dataDir, db)} quick_check: ${String(result).slice(0, 120)}`);
    } catch (error) {
      problems.push(`${label}: ${path.relative(ws.dataDir, db)} does not open: ${(error as Error).message}`);
    }
  }
  const status = await runCli(['status', ...ws.at], ws.env, 60_000);
  if (status.code !== 0) problems.push(`${label}: status exited ${status.code}${status.timedOut ? ' (hang)' : ''}: ${firstLine(status.stderr)}`);
  return problems;
}

/**
 * The after-hashes dream runs recorded for their writes (a write is recorded before its rename):
 * DREAMS.md gains an entry inside its markers, not at the end, so "before plus lines" cannot
 * tell a whole rewrite from a torn one; the recorded hash can.
 */
function plannedWrites(dataDir: string): Set<string> {
  const hashes = new Set<string>();
  for (const db of sqliteFiles(dataDir).filter((f) => f.includes(`${path.sep}dreaming${path.sep}`))) {
    try {
      const handle = new Database(db, { readonly: true, fileMustExist: true });
      for (const { record } of handle.prepare('SELECT record FROM dream_runs').all() as Array<{ record: string }>) {
        for (const w of (JSON.parse(record) as { writes?: Array<{ afterSha256: string | null }> }).writes ?? []) if (w.afterSha256) hashes.add(w.afterSha256);
      }
      handle.close();
    } catch {
      /* no dream store yet: nothing was planned */
    }
  }
  return hashes;
}

function sqliteFiles(dataDir: string): string[] {
  const found: string[] = [];
  for (const sub of ['index', 'dreaming', 'agents']) {
    const dir = path.join(dataDir, sub);
    let names: string[] = [];
    try {
      names = fs.readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) if (name.endsWith('.sqlite')) found.push(path.join(dir, name));
  }
  return found;
}
