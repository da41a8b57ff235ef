import fs from 'node:fs';
import { discoverWorkspace } from '../../workspace/discovery.js';
import { activeEntries, sameProject } from './activeEntries.js';
import { readCuratedText } from './curatedText.js';
import { processLogger } from '../../platform/log/processLog.js';

const log = processLogger('agents/context');

export interface ProjectEntry {
  /** Workspace-relative, `/`-separated. */
  path: string;
  /** 1-based first line of the entry. */
  line: number;
  text: string;
}

// A daily note this large is not a note; reading it would stall the agent's first call.
const MAX_NOTE_BYTES = 4 * 1024 * 1024;

/**
 * Active entries annotated `<!-- project: KEY -->` for the project, from MEMORY.md then every
 * `memory/**\/*.md` in path order. Symlinks, dot folders and non-UTF-8 notes are skipped.
 */
export function collectProjectEntries(workspaceRoot: string, project: string): ProjectEntry[] {
  const found: ProjectEntry[] = [];
  const addFrom = (path: string, text: string) => {
    for (const entry of activeEntries(text)) {
      if (sameProject(entry.annotations.project, project)) found.push({ path, line: entry.startLine, text: entry.body });
    }
  };
  addFrom('MEMORY.md', readCuratedText(workspaceRoot, 'MEMORY.md').text);
  for (const file of discoverWorkspace({ workspaceRoot, extraPaths: [] }).files) {
    if (file.skipReason !== null || !file.path.startsWith('memory/') || file.size > MAX_NOTE_BYTES) continue;
    const text = readUtf8OrNull(file.absPath);
    if (text !== null) addFrom(file.path, text);
  }
  return found;
}

function readUtf8OrNull(absPath: string): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(fs.readFileSync(absPath));
  } catch (error) {
    // Gone or not UTF-8: its coverage says so; the context leaves it out.
    log.debug('A project note could not be read', { path: absPath, error });
    return null;
  }
}
