import type { OriginClass, SessionKind, TranscriptFormat } from '../contract/index.js';

export type { TranscriptFormat, TranscriptTool } from '../contract/index.js';

/** One user or assistant message kept from a transcript, already normalised and redacted. */
export interface TranscriptMessage {
  role: 'user' | 'assistant';
  /** Whitespace-normalised, secrets redacted, recalled memory stripped. Never empty. */
  text: string;
  /** After the taint rule: owner (person's turns), agent (clean assistant), untrusted, system. */
  origin: OriginClass;
  /** 1-based line of the source JSONL this message came from. */
  sourceLine: number;
  /** ISO 8601, or null when the line carries no timestamp. */
  timestamp: string | null;
}

export interface TranscriptStats {
  lines: number;
  messages: number;
  /** Lines of a type the parser does not know (skipped, counted). */
  unknownLines: number;
  /** Lines that are not valid JSON or not valid UTF-8 (skipped, counted). */
  malformedLines: number;
  toolCalls: number;
  toolResults: number;
  redactions: number;
  /** Messages or parts removed because they were memory injected into the session. */
  recalledStripped: number;
}

export interface TranscriptMeta {
  /** The transcript's format (which parser read it). */
  format: TranscriptFormat;
  sessionId: string;
  sessionKind: SessionKind;
  /** Working directory of the session when the transcript says it. */
  cwd: string | null;
  startedAt: string | null;
  /** The session that spawned this one (Claude Code sub-agent transcripts), when known. */
  parentSessionId?: string | null;
}

/**
 * Everything needed to continue reading a transcript after more lines were appended. Plain JSON:
 * store it as is and pass it back as `resume`.
 */
export interface TranscriptResumeState {
  version: 1;
  /** The parser that read it. States saved before formats had names say `tool` (a tool id) instead. */
  parser?: TranscriptFormat;
  tool?: string;
  /** Byte offset of the next unread line. */
  offset: number;
  /** 1-based number of that line. */
  nextLine: number;
  /** The first bytes of the file when this state was taken: a rewritten file starts over. */
  head: { bytes: number; sha256: string };
  meta: TranscriptMeta;
  /** The session kind came from the caller, not the content. */
  kindLocked: boolean;
  /** Taint of the turn in progress and tool calls still waiting for their results. */
  turn: { tainted: boolean; pendingCalls: Record<string, 'local' | 'network'> };
  /** Parser-specific flags. */
  format: Record<string, string | number | boolean | null>;
}

/** A line of the JSONL that was skipped as malformed: its 1-based number and why. */
export interface MalformedLine {
  line: number;
  reason: string;
}

export interface TranscriptReadResult {
  meta: TranscriptMeta;
  /** Counts for the lines read by this call only. */
  stats: TranscriptStats;
  /** The first malformed lines read by this call (at most a few; stats.malformedLines counts them all). */
  malformed: MalformedLine[];
  resume: TranscriptResumeState;
  /** The resume state did not fit the file (truncated, rewritten, other format): read from the start. */
  restarted: boolean;
}

export interface TranscriptSkipped {
  skipped: 'too large' | 'missing' | 'unrecognised format';
  size: number;
}

export type TranscriptReadOutcome = TranscriptReadResult | TranscriptSkipped;
