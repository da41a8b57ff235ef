import fs from 'node:fs';
import path from 'node:path';
import type { DetectedCollection, DetectedFile, DetectedSource } from './types.js';
import { addSkippedNames, fileEntry, homeProblem, listFolder } from './sourceFolders.js';
import { safeNameSegment } from './importPaths.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('importers/hermes');

/** Hermes' implicit profile is the home folder itself. */
export const HERMES_DEFAULT_COLLECTION = 'default';

// Only these two are memory; `MEMORY.md.lock` and `MEMORY.md.bak.<time>` drift backups are not.
const HERMES_MEMORY_FILES = new Set(['MEMORY.md', 'USER.md']);

/**
 * Hermes (`$HERMES_HOME`, `~/.hermes`, `%LOCALAPPDATA%\hermes`): the default profile's
 * `memories/` and every `profiles/<name>/memories/`, each holding MEMORY.md and USER.md.
 */
export function detectHermes(tool: string, home: string): DetectedSource {
  const notes: string[] = [];
  const { exists, note } = homeProblem(home);
  if (note) notes.push(note);
  const source: DetectedSource = { tool, home, exists, collections: [], transcripts: 0, notes };
  if (!exists) return source;

  const active = activeProfile(home);
  if (active) notes.push(`Active Hermes profile: ${active}.`);
  const used = new Set<string>();
  const badNames: DetectedFile[] = [];
  addProfile(source, HERMES_DEFAULT_COLLECTION, home, used, badNames);
  const profilesDir = path.join(home, 'profiles');
  for (const profile of listFolder(profilesDir, notes, badNames)) {
    const profileDir = path.join(profilesDir, profile.name);
    if (profile.isSymbolicLink()) {
      source.collections.push({ name: uniqueProfileName(profile.name, used), projectPath: null, origin: profileDir, files: [fileEntry(profileDir, '', profile)] });
    } else if (profile.isDirectory()) {
      addProfile(source, uniqueProfileName(profile.name, used), profileDir, used, badNames);
    }
  }
  addSkippedNames(source, badNames);
  return source;
}

function addProfile(source: DetectedSource, name: string, profileDir: string, used: Set<string>, badNames: DetectedFile[]): void {
  used.add(name);
  const memoriesDir = path.join(profileDir, 'memories');
  const files: DetectedFile[] = [];
  for (const entry of listFolder(memoriesDir, source.notes, badNames)) {
    if (HERMES_MEMORY_FILES.has(entry.name) && (entry.isFile() || entry.isSymbolicLink())) files.push(fileEntry(path.join(memoriesDir, entry.name), entry.name, entry));
    // Every file in the folder is accounted for: what is not imported is named with the reason.
    else source.notes.push(`Not imported: ${path.join(memoriesDir, entry.name)} (${notMemoryReason(entry)}).`);
  }
  if (files.length > 0) source.collections.push({ name, projectPath: null, origin: memoriesDir, files } satisfies DetectedCollection);
}

function notMemoryReason(entry: fs.Dirent): string {
  if (entry.name.endsWith('.lock')) return "Hermes' lock file, not memory";
  if (/\.bak(\.|$)/.test(entry.name)) return "a Hermes drift backup of an earlier version, not current memory";
  if (HERMES_MEMORY_FILES.has(entry.name)) return 'not a regular file';
  return 'Hermes keeps memory only in MEMORY.md and USER.md';
}

function uniqueProfileName(profile: string, used: Set<string>): string {
  let name = safeNameSegment(profile);
  if (used.has(name)) name = safeNameSegment(`profile-${profile}`);
  used.add(name);
  return name;
}

/** The sticky profile chosen with `hermes profile use`, when Hermes recorded one. */
function activeProfile(home: string): string | null {
  try {
    const name = fs.readFileSync(path.join(home, 'active_profile'), 'utf8').trim();
    return name === '' ? null : name;
  } catch (error) {
    log.debug('Hermes records no active profile', { home, error });
    return null;
  }
}
