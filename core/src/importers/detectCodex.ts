import path from 'node:path';
import type { DetectedCollection, DetectedFile, DetectedSource } from './types.js';
import { addSkippedNames, fileEntry, homeProblem, isMarkdownFileName, joinRel, listFolder } from './sourceFolders.js';

/** Codex keeps its memories in one folder; they are imported as one collection. */
export const CODEX_COLLECTION = 'memories';

const TOP_LEVEL_FILES = new Set(['MEMORY.md', 'memory_summary.md', 'raw_memories.md']);

/**
 * Codex (`$CODEX_HOME`, default `~/.codex`): `memories/MEMORY.md`, `memory_summary.md`,
 * `raw_memories.md`, `rollout_summaries/*.md`, `skills/<name>/SKILL.md`, and the older
 * per-folder layout `memories/**\/MEMORY.md`. Rollouts under `sessions/` are only counted.
 */
export function detectCodex(tool: string, home: string): DetectedSource {
  const notes: string[] = [];
  const { exists, note } = homeProblem(home);
  if (note) notes.push(note);
  const source: DetectedSource = { tool, home, exists, collections: [], transcripts: 0, notes };
  if (!exists) return source;

  const memoriesDir = path.join(home, 'memories');
  const files: DetectedFile[] = [];
  const badNames: DetectedFile[] = [];
  for (const entry of listFolder(memoriesDir, notes, badNames)) {
    const abs = path.join(memoriesDir, entry.name);
    if (entry.isSymbolicLink()) {
      if (TOP_LEVEL_FILES.has(entry.name) || !isMarkdownFileName(entry.name)) files.push(fileEntry(abs, entry.name, entry));
    } else if (entry.isFile() && TOP_LEVEL_FILES.has(entry.name)) {
      files.push(fileEntry(abs, entry.name, entry));
    } else if (entry.isDirectory() && entry.name === 'rollout_summaries') {
      for (const inner of listFolder(abs, notes, badNames)) {
        if (inner.isSymbolicLink() || (inner.isFile() && isMarkdownFileName(inner.name)))
          files.push(fileEntry(path.join(abs, inner.name), joinRel(entry.name, inner.name), inner));
      }
    } else if (entry.isDirectory() && entry.name === 'skills') {
      for (const skill of listFolder(abs, notes, badNames)) {
        const skillAbs = path.join(abs, skill.name);
        if (skill.isSymbolicLink()) files.push(fileEntry(skillAbs, joinRel(entry.name, skill.name), skill));
        else if (skill.isDirectory()) {
          for (const inner of listFolder(skillAbs, notes, badNames)) {
            if (inner.name === 'SKILL.md' && (inner.isFile() || inner.isSymbolicLink()))
              files.push(fileEntry(path.join(skillAbs, inner.name), joinRel(entry.name, skill.name, inner.name), inner));
          }
        }
      }
    } else if (entry.isDirectory() && !entry.name.startsWith('.')) {
      collectLegacyMemoryFiles(abs, entry.name, files, notes, badNames);
    }
  }
  if (files.length > 0) source.collections.push({ name: CODEX_COLLECTION, projectPath: null, origin: memoriesDir, files } satisfies DetectedCollection);
  addSkippedNames(source, badNames);
  source.transcripts = countRollouts(path.join(home, 'sessions'), notes);
  if (source.transcripts > 0) notes.push(`${source.transcripts} Codex rollout transcript(s) found; they are ingested as sessions, not copied.`);
  return source;
}

/** The older layout: one `MEMORY.md` per folder, at any depth. Symlinked folders are reported, not entered. */
function collectLegacyMemoryFiles(root: string, rootRel: string, files: DetectedFile[], notes: string[], badNames: DetectedFile[]): void {
  const stack: Array<[string, string]> = [[root, rootRel]];
  while (stack.length > 0) {
    const [dir, rel] = stack.pop()!;
    for (const entry of listFolder(dir, notes, badNames)) {
      const abs = path.join(dir, entry.name);
      const entryRel = joinRel(rel, entry.name);
      if (entry.isSymbolicLink()) files.push(fileEntry(abs, entryRel, entry));
      else if (entry.isDirectory() && !entry.name.startsWith('.')) stack.push([abs, entryRel]);
      else if (entry.isFile() && entry.name === 'MEMORY.md') files.push(fileEntry(abs, entryRel, entry));
    }
  }
}

function countRollouts(sessionsDir: string, notes: string[]): number {
  let count = 0;
  const stack = [sessionsDir];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    for (const entry of listFolder(dir, notes)) {
      if (entry.isDirectory()) stack.push(path.join(dir, entry.name));
      else if (entry.isFile() && entry.name.startsWith('rollout-') && entry.name.endsWith('.jsonl')) count++;
    }
  }
  return count;
}
