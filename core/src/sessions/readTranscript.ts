import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { SessionKind } from '../contract/index.js';
import { agentTool } from '../contract/index.js';
import { detectTranscriptFormat, parserFor } from './detectFormat.js';
import { isRecord } from './jsonFields.js';
import { readJsonlLines } from './lineReader.js';
import type { RecalledTextCheck } from './recalled.js';
import type { TranscriptParser } from './transcriptParser.js';
import { emptyStats, TranscriptSession, type SessionState } from './transcriptSession.js';
import type { MalformedLine, TranscriptFormat, TranscriptMessage, TranscriptMeta, TranscriptReadOutcome, TranscriptResumeState } from './types.js';

/** Issue 4's default size cap for one transcript. */
export const DEFAULT_MAX_TRANSCRIPT_BYTES = 512 * 1024 * 1024;
/** Longer lines (pasted images, huge tool outputs) are skipped as malformed instead of being buffered. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;
// How much of the file start identifies it across reads.
const HEAD_BYTES = 4096;
// Malformed lines named in a read's outcome (all are counted): enough to find them, never a list as long as the file.
const MALFORMED_NAMED = 5;

export interface ReadTranscriptOptions {
  /** The format; detected from the content when absent. */
  format?: TranscriptFormat;
  /** State returned by the previous read of this file: only lines after it are read. */
  resume?: TranscriptResumeState | null;
  /** The writer is done: also read a last line that has no newline. */
  final?: boolean;
  /** Files above this size are not read (default 512 MB). */
  maxBytes?: number;
  maxLineBytes?: number;
  /** Recognises lines of the workspace's memory that the session recalled (see `recalledLineMatcher`). */
  isRecalledText?: RecalledTextCheck;
  /** Session kind known from elsewhere (e.g. OpenClaw's sessions.json); overrides what the content says. */
  sessionKind?: SessionKind;
  /** MCP servers whose tool results are local (default: Reverie's own). */
  localMcpServers?: readonly string[];
  /** Set to the session's live meta once the format is known: a caller can read the kind while messages stream. */
  liveMeta?: { current: TranscriptMeta | null };
}

async function fileHead(filePath: string, bytes: number): Promise<{ bytes: number; sha256: string }> {
  const buffer = Buffer.alloc(bytes);
  let read = 0;
  if (bytes > 0) {
    const handle = await fs.promises.open(filePath, 'r');
    try {
      read = (await handle.read(buffer, 0, bytes, 0)).bytesRead;
    } finally {
      await handle.close();
    }
  }
  return { bytes: read, sha256: createHash('sha256').update(buffer.subarray(0, read)).digest('hex') };
}

/** The parser a resume state was written by (older states name the tool, whose format it was). */
function resumeFormat(resume: TranscriptResumeState): TranscriptFormat | null {
  return resume.parser ?? (resume.tool === undefined ? null : (agentTool(resume.tool)?.transcripts ?? null));
}

async function fitsFile(filePath: string, resume: TranscriptResumeState, size: number, format: TranscriptFormat | undefined): Promise<boolean> {
  const written = resumeFormat(resume);
  if (resume.version !== 1 || written === null || (format !== undefined && written !== format)) return false;
  if (!Number.isSafeInteger(resume.offset) || resume.offset < 0 || resume.offset > size) return false;
  const head = await fileHead(filePath, resume.head.bytes);
  return head.bytes === resume.head.bytes && head.sha256 === resume.head.sha256;
}

function freshState(parser: TranscriptParser, filePath: string, options: ReadTranscriptOptions): SessionState {
  return {
    meta: {
      format: parser.format,
      sessionId: parser.sessionIdFromPath(filePath),
      sessionKind: options.sessionKind ?? parser.initialKind(filePath),
      cwd: null,
      startedAt: null,
      parentSessionId: null,
    },
    kindLocked: options.sessionKind !== undefined,
    turn: { tainted: false, pendingCalls: {} },
    format: {},
  };
}

/**
 * Streams a transcript JSONL file and yields the user and assistant text it holds, in order, with
 * origins after the taint rule. Returns the session meta, counts, and a resume state to continue
 * from after more lines are appended (reading an unchanged file from it yields nothing).
 */
export async function* readTranscript(
  filePath: string,
  options: ReadTranscriptOptions = {},
): AsyncGenerator<TranscriptMessage, TranscriptReadOutcome, undefined> {
  let size: number;
  try {
    const stat = await fs.promises.stat(filePath);
    if (!stat.isFile()) return { skipped: 'missing', size: 0 };
    size = stat.size;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { skipped: 'missing', size: 0 };
    throw error;
  }
  if (size > (options.maxBytes ?? DEFAULT_MAX_TRANSCRIPT_BYTES)) return { skipped: 'too large', size };

  const resume = options.resume ?? null;
  const usable = resume !== null && (await fitsFile(filePath, resume, size, options.format)) ? resume : null;
  const restarted = resume !== null && usable === null;
  const stats = emptyStats();
  const malformed: MalformedLine[] = [];
  const skipMalformed = (line: number, reason: string): void => {
    stats.malformedLines += 1;
    if (malformed.length < MALFORMED_NAMED) malformed.push({ line, reason });
  };
  const sessionOptions = { isRecalledText: options.isRecalledText, localMcpServers: options.localMcpServers };

  let parser: TranscriptParser | null = null;
  let session: TranscriptSession | null = null;
  if (usable !== null) {
    parser = parserFor(resumeFormat(usable)!);
    const state: SessionState = structuredClone({ meta: { ...usable.meta, format: parser.format }, kindLocked: usable.kindLocked, turn: usable.turn, format: usable.format });
    if (options.sessionKind !== undefined) {
      state.meta.sessionKind = options.sessionKind;
      state.kindLocked = true;
    }
    session = new TranscriptSession(state, stats, sessionOptions);
  } else {
    if (options.format !== undefined) {
      parser = parserFor(options.format);
      session = new TranscriptSession(freshState(parser, filePath, options), stats, sessionOptions);
    }
  }

  if (session !== null && options.liveMeta) options.liveMeta.current = session.meta;
  let offset = usable?.offset ?? 0;
  let lineNumber = (usable?.nextLine ?? 1) - 1;
  const lines = readJsonlLines(filePath, {
    start: offset,
    end: size,
    final: options.final ?? false,
    maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
  });
  for await (const line of lines) {
    lineNumber += 1;
    offset = line.nextOffset;
    stats.lines += 1;
    if (line.text === null) {
      skipMalformed(lineNumber, line.unreadable ?? 'unreadable');
      continue;
    }
    if (line.text.trim() === '') continue;
    let record: unknown;
    try {
      record = JSON.parse(line.text);
    } catch (error) {
      // Counted and named in the outcome (the ingest report names file and line); only the
      // error's kind is kept: V8's message quotes the line, which may hold a secret.
      skipMalformed(lineNumber, error instanceof SyntaxError ? 'not valid JSON' : `not readable as JSON (${(error as Error).name})`);
      continue;
    }
    if (!isRecord(record)) {
      skipMalformed(lineNumber, 'not a JSON object');
      continue;
    }
    if (parser === null || session === null) {
      const format = detectTranscriptFormat(record);
      if (format === null) {
        stats.unknownLines += 1;
        continue;
      }
      parser = parserFor(format);
      session = new TranscriptSession(freshState(parser, filePath, options), stats, sessionOptions);
      if (options.liveMeta) options.liveMeta.current = session.meta;
    }
    session.at(lineNumber, parser.timestampOf(record));
    if (!parser.handleLine(record, session)) stats.unknownLines += 1;
    for (const message of session.drain()) yield message;
  }

  if (parser === null || session === null) return { skipped: 'unrecognised format', size };
  const state = session.state;
  return {
    meta: structuredClone(state.meta),
    stats,
    malformed,
    restarted,
    resume: {
      version: 1,
      parser: parser.format,
      offset,
      nextLine: lineNumber + 1,
      head: await fileHead(filePath, Math.min(offset, HEAD_BYTES)),
      meta: structuredClone(state.meta),
      kindLocked: state.kindLocked,
      turn: structuredClone(state.turn),
      format: { ...state.format },
    },
  };
}

/** Reads a whole transcript into memory (small files, tests, previews). */
export async function collectTranscript(
  filePath: string,
  options: ReadTranscriptOptions = {},
): Promise<{ messages: TranscriptMessage[]; outcome: TranscriptReadOutcome }> {
  const messages: TranscriptMessage[] = [];
  const reader = readTranscript(filePath, options);
  for (;;) {
    const next = await reader.next();
    if (next.done) return { messages, outcome: next.value };
    messages.push(next.value);
  }
}

export function isTranscriptSkipped(outcome: TranscriptReadOutcome): outcome is Extract<TranscriptReadOutcome, { skipped: string }> {
  return 'skipped' in outcome;
}
