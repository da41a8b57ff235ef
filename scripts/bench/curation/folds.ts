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
  /** Query text (without the ">") → the label ids it is genuinely asking about ([] for none), decided by hand. */
  asks: Record<string, string[]>;
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

/** A typed search without its leading ">" (the open-the-top-result mark): the text `asks` is keyed by. */
export function queryText(typed: string): string {
  return typed.startsWith('>') ? typed.slice(1).trim() : typed;
}

/** The first label of an entry's duplicate chain: the fact it restates. */
export function rootOf(label: EntryLabel, byId: Map<string, EntryLabel>): string {
  let current = label;
  const seen = new Set<string>();
  while (current.duplicateOf && !seen.has(current.id)) {
    seen.add(current.id);
    current = byId.get(current.duplicateOf) ?? current;
  }
  return current.id;
}

/** The recall targets: promote entries that are not a duplicate, not superseded, not in a contradiction. */
export function recallTargets(fold: Fold): EntryLabel[] {
  const byId = new Map(fold.labels.map((l) => [l.id, l]));
  const superseded = new Set(fold.labels.flatMap((l) => (l.supersedes && byId.has(l.supersedes) ? [rootOf(byId.get(l.supersedes)!, byId)] : [])));
  const contradicting = new Set(fold.labels.flatMap((l) => (l.contradicts ? [l.id, l.contradicts] : [])));
  return fold.labels.filter((l) => l.verdict === 'promote' && !l.duplicateOf && !superseded.has(l.id) && !contradicting.has(l.id));
}

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);

/**
 * Root label id → the distinct queries (lower case) and days that asked about it, by the hand
 * labels in `asks`, counting only days within the 7 days before a sweep night or on one
 * (S-7 ≤ D ≤ S for any sweep S). A query asking about a duplicate counts for the fact it restates.
 */
export function askedInSweepWeeks(fold: Fold): Map<string, { queries: Set<string>; days: Set<string> }> {
  const byId = new Map(fold.labels.map((l) => [l.id, l]));
  const sweeps = fold.use.sweeps.map(dayNumber);
  const inWeek = (day: string) => sweeps.some((s) => s - 7 <= dayNumber(day) && dayNumber(day) <= s);
  const asked = new Map<string, { queries: Set<string>; days: Set<string> }>();
  for (const [day, queries] of Object.entries(fold.use.searches)) {
    if (!inWeek(day)) continue;
    for (const typed of queries) {
      const query = queryText(typed);
      for (const id of fold.use.asks?.[query] ?? []) {
        const label = byId.get(id);
        if (!label) continue;
        const root = rootOf(label, byId);
        const entry = asked.get(root) ?? { queries: new Set<string>(), days: new Set<string>() };
        entry.queries.add(query.toLowerCase());
        entry.days.add(day);
        asked.set(root, entry);
      }
    }
  }
  return asked;
}

/** Recall targets asked by at least 3 distinct queries on at least 2 days of a sweep week (issue 18's bar). */
export function askedTargets(fold: Fold): EntryLabel[] {
  const asked = askedInSweepWeeks(fold);
  return recallTargets(fold).filter((l) => {
    const a = asked.get(l.id);
    return a !== undefined && a.queries.size >= 3 && a.days.size >= 2;
  });
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
  const asks = fold.use.asks ?? {};
  for (const [day, queries] of Object.entries(fold.use.searches)) {
    for (const typed of queries) {
      const query = queryText(typed);
      if (!Object.hasOwn(asks, query)) problems.push(`${fold.name}/use.json: the query "${query}" of ${day} has no asks entry`);
    }
  }
  for (const [query, asked] of Object.entries(asks)) {
    if (!Array.isArray(asked)) problems.push(`${fold.name}/use.json: asks "${query}" must be an array of label ids`);
    else for (const id of asked) if (!ids.has(id)) problems.push(`${fold.name}/use.json: asks "${query}" names unknown id "${id}"`);
  }
  for (const day of [...Object.keys(fold.use.searches), ...fold.use.sweeps]) {
    if (!/^\d{4}-\d\d-\d\d$/.test(day)) problems.push(`${fold.name}/use.json: "${day}" is not a YYYY-MM-DD day`);
  }
  return problems;
}
