import fs from 'node:fs';
import path from 'node:path';
import { toPosix } from '../workspace/layout.js';
import type { TranscriptTool } from './types.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('sessions/discovery');

export interface TranscriptSources {
  /** Each tool's home folder (`~/.codex`, `~/.claude`, `~/.openclaw`), or null when not ingested. */
  codex: string | null;
  claude: string | null;
  openclaw: string | null;
}

export interface DiscoveredTranscript {
  tool: TranscriptTool;
  absPath: string;
  /** Index path: `sessions/<tool>/<path inside the tool's home>`. */
  path: string;
  size: number;
  mtimeMs: number;
  skipReason: string | null;
}

/** Where each tool keeps its transcripts, relative to its home folder. */
const LAYOUTS: Record<TranscriptTool, { key: keyof TranscriptSources; find: (home: string) => string[] }> = {
  codex: { key: 'codex', find: (home) => walkJsonl(path.join(home, 'sessions'), (name) => name.startsWith('rollout-'), 6) },
  'claude-code': {
    key: 'claude',
    // projects/<project>/<session>.jsonl, and sub-agents in projects/<project>/<session>/subagents/agent-*.jsonl
    find: (home) =>
      listDirs(path.join(home, 'projects')).flatMap((project) => [
        ...childrenJsonl(project, 0),
        ...listDirs(project).flatMap((session) => childrenJsonl(path.join(session, 'subagents'), 0)),
      ]),
  },
  openclaw: {
    key: 'openclaw',
    find: (home) => listDirs(path.join(home, 'agents')).flatMap((agent) => childrenJsonl(path.join(agent, 'sessions'), 0)),
  },
};

/** Finds transcripts (never following symlinks: a symlinked file is reported as skipped). */
export function discoverTranscripts(sources: TranscriptSources): DiscoveredTranscript[] {
  const found: DiscoveredTranscript[] = [];
  for (const [tool, layout] of Object.entries(LAYOUTS) as Array<[TranscriptTool, (typeof LAYOUTS)[TranscriptTool]]>) {
    const home = sources[layout.key];
    if (!home) continue;
    for (const absPath of layout.find(home)) {
      let stat: fs.Stats;
      try {
        stat = fs.lstatSync(absPath);
      } catch (error) {
        log.debug('A transcript vanished since listing', { path: absPath, error });
        continue;
      }
      found.push({
        tool,
        absPath,
        path: `sessions/${tool}/${toPosix(path.relative(home, absPath))}`,
        size: stat.size,
        mtimeMs: stat.mtimeMs,
        skipReason: stat.isSymbolicLink() ? 'symlink (not followed)' : stat.isFile() ? null : 'not a file',
      });
    }
  }
  return found.sort((a, b) => (a.path < b.path ? -1 : 1));
}

function readDir(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    // A missing or vanished folder holds no transcripts.
    log.debug('A transcript folder could not be listed', { dir, error });
    return [];
  }
}

function listDirs(dir: string): string[] {
  return readDir(dir).filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => path.join(dir, e.name));
}

/** `*.jsonl` directly in `dir` (depth 0) or in its sub-folders down to `depth`. */
function childrenJsonl(dir: string, depth: number): string[] {
  const out: string[] = [];
  for (const e of readDir(dir)) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && depth > 0 && !e.name.startsWith('.')) out.push(...childrenJsonl(p, depth - 1).filter((f) => path.dirname(f) === p));
    else if (!e.isDirectory() && e.name.endsWith('.jsonl')) out.push(p);
  }
  return out;
}

function walkJsonl(dir: string, accept: (name: string) => boolean, depth: number): string[] {
  const out: string[] = [];
  for (const e of readDir(dir)) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && depth > 0 && !e.name.startsWith('.')) out.push(...walkJsonl(p, accept, depth - 1));
    else if (!e.isDirectory() && e.name.endsWith('.jsonl') && accept(e.name)) out.push(p);
  }
  return out;
}
