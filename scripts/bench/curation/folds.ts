/**
 * The curation benchmark's folds: invented workspaces (daily notes, MEMORY.md, USER.md), one
 * label per entry (found by a unique substring of its line) and a script of searches and sweeps.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const FOLDS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'folds');

/** Why an entry must never reach long-term memory. */
export type NeverReason = 'task' | 'question' | 'trivia' | 'expired' | 'managed' | 'event';
export const NEVER_REASONS: readonly NeverReason[] = ['task', 'question', 'trivia', 'expired', 'managed', 'event'];

export interface EntryLabel {
  id: string;
  /** Workspace-relative file holding the entry. */
  file: string;
  /** A substring of the entry's line that occurs exactly once in the fold. */
  match: string;
  /** existing: already in the starting MEMORY.md/USER.md (only there to be superseded or duplicated). */
  verdict: 'promote' | 'never' | 'existing';
  target?: 'MEMORY.md' | 'USER.md';
  why?: NeverReason;
  duplicateOf?: string;
  supersedes?: string;
  contradicts?: string;
  /** Last day a time-bounded fact holds (YYYY-MM-DD). */
  validUntil?: string;
}

export interface FoldUse {
  /** Nights (YYYY-MM-DD) with a default-gated sweep at 03:00 local time. */
  sweeps: string[];
  /** Per day, the searches typed that day; a leading ">" means the top result is then opened. */
  searches: Record<string, string[]>;
}

export interface Fold {
  name: string;
  persona: string;
  /** The starting workspace, copied before each run. */
  workspaceDir: string;
  labels: EntryLabel[];
  use: FoldUse;
  /** Workspace-relative path → file text. */
  files: Map<string, string>;
}

function listFiles(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(root, child));
    else out.push(child);
  }
  return out.sort();
}

function readJson<T>(file: string): T {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch (error) {
    throw new Error(`${file}: not readable JSON (${error instanceof Error ? error.message : String(error)}); fix the file`);
  }
}

export function foldNames(dir = FOLDS_DIR): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
}

export function loadFold(name: string, dir = FOLDS_DIR): Fold {
  const root = path.join(dir, name);
  const { persona, labels } = readJson<{ persona: string; labels: EntryLabel[] }>(path.join(root, 'labels.json'));
  const use = readJson<FoldUse>(path.join(root, 'use.json'));
  const workspaceDir = path.join(root, 'workspace');
  const files = new Map(listFiles(workspaceDir).map((f) => [f, fs.readFileSync(path.join(workspaceDir, f), 'utf8')]));
  return { name, persona, workspaceDir, labels, use, files };
}

/** Every problem with a fold's labels, as sentences naming the label; empty when consistent. */
export function labelProblems(fold: Fold): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const label of fold.labels) {
    const where = `${fold.name}/labels.json "${label.id}"`;
    if (ids.has(label.id)) problems.push(`${where}: the id is used twice`);
    ids.add(label.id);
    let occurrences = 0;
    for (const text of fold.files.values()) occurrences += text.split(label.match).length - 1;
    if (occurrences !== 1) problems.push(`${where}: "${label.match}" occurs ${occurrences} times in the fold (must be exactly once)`);
    const own = fold.files.get(label.file);
    if (own === undefined) problems.push(`${where}: file ${label.file} is not in the fold`);
    else if (!own.includes(label.match)) problems.push(`${where}: "${label.match}" is not in ${label.file}`);
    if (!['promote', 'never', 'existing'].includes(label.verdict)) problems.push(`${where}: verdict must be promote, never or existing`);
    if (label.verdict === 'promote' && label.target !== 'MEMORY.md' && label.target !== 'USER.md') problems.push(`${where}: a promote label needs target MEMORY.md or USER.md`);
    if (label.verdict === 'never' && !NEVER_REASONS.includes(label.why as NeverReason)) problems.push(`${where}: a never label needs why (${NEVER_REASONS.join(', ')})`);
  }
  const firstSweep = [...fold.use.sweeps].sort()[0] ?? '';
  for (const label of fold.labels) {
    if (label.why === 'expired' && !(label.validUntil !== undefined && label.validUntil < firstSweep)) {
      problems.push(`${fold.name}/labels.json "${label.id}": an expired entry needs validUntil before the first sweep (${firstSweep})`);
    }
    for (const relation of ['duplicateOf', 'supersedes', 'contradicts'] as const) {
      const other = label[relation];
      if (other === undefined) continue;
      if (!ids.has(other)) problems.push(`${fold.name}/labels.json "${label.id}": ${relation} names unknown id "${other}"`);
      if (other === label.id) problems.push(`${fold.name}/labels.json "${label.id}": ${relation} names itself`);
    }
  }
  for (const day of [...Object.keys(fold.use.searches), ...fold.use.sweeps]) {
    if (!/^\d{4}-\d\d-\d\d$/.test(day)) problems.push(`${fold.name}/use.json: "${day}" is not a YYYY-MM-DD day`);
  }
  return problems;
}
