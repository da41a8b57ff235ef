import fs from 'node:fs';
import path from 'node:path';
import { sha256Hex } from '../platform/hash.js';
import type { DetectedCollection, DetectedFile, DetectedSource } from './types.js';
import { addSkippedNames, fileEntry, homeProblem, isMarkdownFileName, listFolder, lstatOrNull, resolveHomePath } from './sourceFolders.js';
import { safeNameSegment } from './importPaths.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('importers/claudeCode');

export const CLAUDE_USER_COLLECTION = 'user';
export const CLAUDE_AUTO_MEMORY_COLLECTION = 'auto-memory';

// Enough of a transcript to meet its first `cwd`; transcripts can be hundreds of megabytes.
const TRANSCRIPT_PEEK_BYTES = 256 * 1024;
const TRANSCRIPTS_PEEKED = 5;

export interface ClaudeDetectOptions {
  /** Also offer `~/.claude/CLAUDE.md` (the person's own instructions). */
  includeClaudeMd?: boolean;
  userHome: string;
}

/**
 * Claude Code (`~/.claude`): `projects/<encoded-path>/memory/*.md`, the `autoMemoryDirectory`
 * from `settings.json`, and optionally `CLAUDE.md`. The encoded folder name is lossy, so the
 * project's real path comes from its transcripts' `cwd`; without one the folder name is kept
 * as an opaque collection name.
 */
export function detectClaudeCode(tool: string, home: string, { includeClaudeMd = true, userHome }: ClaudeDetectOptions): DetectedSource {
  const notes: string[] = [];
  const { exists, note } = homeProblem(home);
  if (note) notes.push(note);
  const source: DetectedSource = { tool, home, exists, collections: [], transcripts: 0, notes };
  if (!exists) return source;

  const projectsDir = path.join(home, 'projects');
  const usedNames = new Set<string>();
  const badNames: DetectedFile[] = [];
  for (const project of listFolder(projectsDir, notes, badNames)) {
    const projectDir = path.join(projectsDir, project.name);
    if (project.isSymbolicLink()) {
      source.collections.push(collection(uniqueName(safeNameSegment(project.name), usedNames), null, projectDir, [fileEntry(projectDir, '', project)]));
      continue;
    }
    if (!project.isDirectory()) continue;
    const memoryDir = path.join(projectDir, 'memory');
    const memoryStat = lstatOrNull(memoryDir);
    if (!memoryStat) continue;
    const projectPath = projectPathFromTranscripts(projectDir);
    const name = uniqueName(projectPath ? collectionNameForPath(projectPath) : safeNameSegment(project.name), usedNames);
    const files = memoryStat.isSymbolicLink() ? [fileEntry(memoryDir, '', memoryStat)] : markdownFilesIn(memoryDir, notes, badNames);
    if (files.length > 0) source.collections.push(collection(name, projectPath, memoryDir, files));
  }

  const autoDir = autoMemoryDirectory(home, userHome, notes);
  if (autoDir) {
    const alreadyListed = source.collections.some((c) => samePath(c.origin, autoDir));
    const stat = lstatOrNull(autoDir);
    if (!stat) notes.push(`autoMemoryDirectory ${autoDir} (from settings.json) does not exist.`);
    else if (!alreadyListed) {
      const files = stat.isSymbolicLink() ? [fileEntry(autoDir, '', stat)] : markdownFilesIn(autoDir, notes, badNames);
      if (files.length > 0) source.collections.push(collection(uniqueName(CLAUDE_AUTO_MEMORY_COLLECTION, usedNames), null, autoDir, files));
    }
  }

  if (includeClaudeMd) {
    const claudeMd = path.join(home, 'CLAUDE.md');
    const stat = lstatOrNull(claudeMd);
    if (stat && (stat.isFile() || stat.isSymbolicLink()))
      source.collections.push(collection(uniqueName(CLAUDE_USER_COLLECTION, usedNames), null, home, [fileEntry(claudeMd, 'CLAUDE.md', stat)]));
  }
  addSkippedNames(source, badNames);
  return source;
}

function collection(name: string, projectPath: string | null, origin: string, files: DetectedFile[]): DetectedCollection {
  return { name, projectPath, origin, files };
}

function markdownFilesIn(dir: string, notes: string[], badNames: DetectedFile[]): DetectedFile[] {
  const files: DetectedFile[] = [];
  for (const entry of listFolder(dir, notes, badNames)) {
    if (entry.isSymbolicLink() || (entry.isFile() && isMarkdownFileName(entry.name))) files.push(fileEntry(path.join(dir, entry.name), entry.name, entry));
  }
  return files;
}

/** `ledgerd-1a2b3c4d` for `/Users/dana/src/ledgerd`: readable, and distinct for same-named projects. */
export function collectionNameForPath(projectPath: string): string {
  const base = projectPath.split(/[\\/]/).filter((s) => s !== '').pop() ?? 'root';
  return safeNameSegment(`${base}-${sha256Hex(projectPath).slice(0, 8)}`);
}

function uniqueName(name: string, used: Set<string>): string {
  let candidate = name;
  for (let n = 2; used.has(candidate); n++) candidate = `${name}-${n}`;
  used.add(candidate);
  return candidate;
}

/** The first `cwd` found in the project's transcripts (newest first), reading only their beginning. */
export function projectPathFromTranscripts(projectDir: string): string | null {
  const transcripts = listFolder(projectDir, [])
    .filter((e) => e.isFile() && e.name.endsWith('.jsonl'))
    .map((e) => path.join(projectDir, e.name))
    .map((p) => ({ p, mtime: lstatOrNull(p)?.mtimeMs ?? 0 }))
    .sort((a, b) => b.mtime - a.mtime || (a.p < b.p ? -1 : 1))
    .slice(0, TRANSCRIPTS_PEEKED);
  for (const { p } of transcripts) {
    const cwd = firstCwd(p);
    if (cwd) return cwd;
  }
  return null;
}

function firstCwd(file: string): string | null {
  let text: string;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(TRANSCRIPT_PEEK_BYTES);
      const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
      text = buffer.subarray(0, read).toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    log.debug('A Claude Code transcript could not be read', { file, error });
    return null;
  }
  const lines = text.split('\n');
  if (text.length >= TRANSCRIPT_PEEK_BYTES) lines.pop(); // the last line may be cut
  for (const line of lines) {
    if (!line.includes('"cwd"')) continue;
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === 'object' && value !== null && 'cwd' in value) {
        const cwd = (value as { cwd: unknown }).cwd;
        if (typeof cwd === 'string' && cwd.trim() !== '') return cwd;
      }
    } catch (error) {
      // A malformed line: keep looking.
      log.debug('A Claude Code transcript line is not JSON', { file, error });
    }
  }
  return null;
}

function autoMemoryDirectory(home: string, userHome: string, notes: string[]): string | null {
  const settingsFile = path.join(home, 'settings.json');
  let raw: string;
  try {
    raw = fs.readFileSync(settingsFile, 'utf8');
  } catch (error) {
    log.debug('No Claude Code settings', { file: settingsFile, error });
    return null;
  }
  try {
    const settings: unknown = JSON.parse(raw);
    const value = typeof settings === 'object' && settings !== null ? (settings as Record<string, unknown>).autoMemoryDirectory : undefined;
    if (value === undefined) return null;
    if (typeof value !== 'string' || value.trim() === '') {
      notes.push(`autoMemoryDirectory in ${settingsFile} is not a path; ignored.`);
      return null;
    }
    return path.resolve(home, resolveHomePath(value.trim(), userHome));
  } catch (error) {
    log.debug('The Claude Code settings are not JSON', { file: settingsFile, error });
    notes.push(`${settingsFile} is not valid JSON; autoMemoryDirectory was not read.`);
    return null;
  }
}

function samePath(a: string, b: string): boolean {
  if (path.resolve(a) === path.resolve(b)) return true;
  try {
    return fs.realpathSync(a) === fs.realpathSync(b);
  } catch (error) {
    log.debug('Two paths could not be compared', { a, b, error });
    return false;
  }
}
