/**
 * The scale benchmark's data: a heavy agent user's daily notes (SyntheticCorpus, ~5 KB each)
 * and Claude Code JSONL transcripts generated to a byte budget. Transcript prose comes from the
 * notes' lexicon, as an agent user's sessions talk about the same projects and people, so
 * every source filter has matches. Deterministic: the same sizes give the same bytes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Rng } from './prng.js';
import type { SyntheticCorpus } from './synthetic.js';

/** Sessions of a heavy user run from ~50 KB to ~1 MB (the 300 MB held 610 files). */
const MIN_TRANSCRIPT_BYTES = 48 * 1024;
const MAX_TRANSCRIPT_BYTES = 960 * 1024;
const PROJECT_FOLDERS = 24;
const TOOLS = ['Read', 'Edit', 'Bash', 'Grep', 'Glob', 'Write'];
const WRITE_PIECE_BYTES = 4 * 1024 * 1024;

export interface TranscriptWriteStats {
  files: number;
  bytes: number;
  /** User and assistant lines written (tool results included: they are `user` lines). */
  lines: number;
  seconds: number;
}

/** Sentences from the notes' lexicon, joined. */
function prose(corpus: SyntheticCorpus, rng: Rng, sentences: number): string {
  const out: string[] = [];
  for (let i = 0; i < sentences; i++) out.push(corpus.sentence(rng));
  return out.join(' ');
}

/** A tool result as agents see them: file contents or command output, not indexed as conversation. */
function toolOutput(rng: Rng): string {
  const lines: string[] = [];
  const n = rng.range(8, 40);
  for (let i = 0; i < n; i++) lines.push(`${String(i + 1).padStart(4)}\tconst v${rng.int(1000)} = await step${rng.int(50)}(ctx, ${rng.int(9999)}); // ${rng.int(1e9).toString(36)}`);
  return lines.join('\n');
}

/**
 * One Claude Code session file of about `bytes`: turns of a user prompt, an assistant reply
 * with a tool call, the tool's result, and the assistant's follow-up.
 */
export function writeClaudeTranscript(file: string, sessionId: string, cwd: string, bytes: number, corpus: SyntheticCorpus, seed: number): { bytes: number; lines: number } {
  const rng = new Rng(seed);
  const fd = fs.openSync(file, 'w');
  let parts: string[] = [];
  let pending = 0;
  let written = 0;
  let lines = 0;
  let turn = 0;
  const base = Date.UTC(2026, 0, 1) + (seed % 100_000) * 60_000;
  // Written in pieces: a 2 GB transcript is never one string.
  const flush = (): void => {
    fs.writeSync(fd, parts.join(''));
    parts = [];
    pending = 0;
  };
  const push = (obj: unknown): void => {
    const line = JSON.stringify(obj) + '\n';
    parts.push(line);
    const size = Buffer.byteLength(line);
    written += size;
    pending += size;
    lines++;
    if (pending >= WRITE_PIECE_BYTES) flush();
  };
  try {
    while (written < bytes) {
      const common = { parentUuid: null, isSidechain: false, userType: 'external', cwd, sessionId, version: '2.1.80', gitBranch: 'main' };
      const at = (k: number): string => new Date(base + (turn * 4 + k) * 7_000).toISOString();
      const toolId = `toolu_${seed.toString(36)}_${turn}`;
      push({ ...common, type: 'user', uuid: `${sessionId}-u${turn}`, timestamp: at(0), message: { role: 'user', content: prose(corpus, rng, rng.range(1, 3)) } });
      push({
        ...common, type: 'assistant', uuid: `${sessionId}-a${turn}`, timestamp: at(1),
        message: { id: `msg_${turn}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: prose(corpus, rng, rng.range(2, 6)) }, { type: 'tool_use', id: toolId, name: rng.pick(TOOLS), input: { file_path: `${cwd}/src/${rng.int(200)}.ts` } }], usage: { input_tokens: rng.int(9000), output_tokens: rng.int(900) } },
      });
      push({ ...common, type: 'user', uuid: `${sessionId}-r${turn}`, timestamp: at(2), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolId, content: toolOutput(rng) }] } });
      push({
        ...common, type: 'assistant', uuid: `${sessionId}-b${turn}`, timestamp: at(3),
        message: { id: `msg_${turn}b`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: prose(corpus, rng, rng.range(1, 4)) }] },
      });
      turn++;
    }
    flush();
  } finally {
    fs.closeSync(fd);
  }
  return { bytes: written, lines };
}

/**
 * Claude Code's home (`<home>/projects/<encoded cwd>/<uuid>.jsonl`) filled with sessions of
 * 48 KB–960 KB until `totalBytes`; their times are set an hour back so they count as finished.
 */
export function writeClaudeHome(home: string, totalBytes: number, corpus: SyntheticCorpus, seed = 7): TranscriptWriteStats {
  const started = performance.now();
  const rng = new Rng(seed);
  const finished = new Date(Date.now() - 3_600_000);
  let bytes = 0;
  let lines = 0;
  let files = 0;
  while (bytes < totalBytes) {
    const project = files % PROJECT_FOLDERS;
    const cwd = `/home/dana/src/${corpus.lex.projects[project % corpus.lex.projects.length]!.toLowerCase()}`;
    const dir = path.join(home, 'projects', cwd.replace(/[/.]/g, '-'));
    fs.mkdirSync(dir, { recursive: true });
    const id = `00000000-0000-4000-8000-${files.toString(16).padStart(12, '0')}`;
    const size = Math.min(totalBytes - bytes, rng.range(MIN_TRANSCRIPT_BYTES, MAX_TRANSCRIPT_BYTES));
    const file = path.join(dir, `${id}.jsonl`);
    const w = writeClaudeTranscript(file, id, cwd, Math.max(1, size), corpus, seed * 1_000_003 + files);
    fs.utimesSync(file, finished, finished);
    bytes += w.bytes;
    lines += w.lines;
    files++;
  }
  return { files, bytes, lines, seconds: (performance.now() - started) / 1000 };
}

/** One Claude Code session of about `totalBytes` (the bench's 2 GB case), written in pieces, finished an hour ago. */
export function writeOneLargeTranscript(file: string, totalBytes: number, corpus: SyntheticCorpus, seed = 11): TranscriptWriteStats {
  const started = performance.now();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const id = path.basename(file, '.jsonl');
  const w = writeClaudeTranscript(file, id, `/home/dana/src/${corpus.lex.projects[0]!.toLowerCase()}`, totalBytes, corpus, seed);
  const finished = new Date(Date.now() - 3_600_000);
  fs.utimesSync(file, finished, finished);
  return { files: 1, bytes: w.bytes, lines: w.lines, seconds: (performance.now() - started) / 1000 };
}
