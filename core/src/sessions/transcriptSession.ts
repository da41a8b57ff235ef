import type { OriginClass, SessionKind } from '../contract/index.js';
import { normalizeWhitespace } from './normalize.js';
import { stripRecalledText, type RecalledTextCheck } from './recalled.js';
import { redactSecrets } from './redact.js';
import type { ToolSource } from './toolSources.js';
import type { TranscriptMessage, TranscriptMeta, TranscriptResumeState, TranscriptStats } from './types.js';

/** The serialisable part of a reading session (everything in the resume state except file position). */
export type SessionState = Pick<TranscriptResumeState, 'meta' | 'kindLocked' | 'turn' | 'format'>;

export interface SessionOptions {
  isRecalledText?: RecalledTextCheck;
  localMcpServers?: readonly string[];
}

// Tool calls that never got a result are forgotten past this many, oldest first.
const MAX_PENDING_CALLS = 512;

export function emptyStats(): TranscriptStats {
  return { lines: 0, messages: 0, unknownLines: 0, malformedLines: 0, toolCalls: 0, toolResults: 0, redactions: 0, recalledStripped: 0 };
}

/**
 * Turn, taint and origin bookkeeping shared by the format parsers. A turn runs from one real user
 * message to the next; a network-sourced tool result taints every later assistant message of the turn.
 */
export class TranscriptSession {
  private readonly pending: TranscriptMessage[] = [];
  private line = 0;
  private timestamp: string | null = null;

  constructor(
    readonly state: SessionState,
    readonly stats: TranscriptStats,
    readonly options: SessionOptions,
  ) {}

  get meta(): TranscriptMeta {
    return this.state.meta;
  }

  /** Positions the session on a source line before a parser handles it. */
  at(line: number, timestamp: string | null): this {
    this.line = line;
    this.timestamp = timestamp;
    // The first timestamp in the file, unless a session header says otherwise.
    if (timestamp !== null) this.state.meta.startedAt ??= timestamp;
    return this;
  }

  setKind(kind: SessionKind): void {
    if (!this.state.kindLocked) this.state.meta.sessionKind = kind;
  }

  /** A real user message: a new turn, untainted. */
  startTurn(): void {
    this.state.turn.tainted = false;
  }

  /** External content entered the turn: every later assistant message of it is untrusted. */
  taint(): void {
    this.state.turn.tainted = true;
  }

  get isTainted(): boolean {
    return this.state.turn.tainted;
  }

  /** Origin of the person's side of a turn: owner only in an interactive session. */
  userOrigin(): OriginClass {
    return this.meta.sessionKind === 'interactive' ? 'owner' : 'system';
  }

  userText(text: string, origin: OriginClass = this.userOrigin()): void {
    this.emit('user', origin, text);
  }

  assistantText(text: string): void {
    this.emit('assistant', this.isTainted ? 'untrusted' : 'agent', text);
  }

  /** Content from outside the trust boundary that arrived in a message (not a tool): kept, untrusted, and it taints. */
  externalText(role: 'user' | 'assistant', text: string): void {
    this.emit(role, 'untrusted', text);
    this.taint();
  }

  toolCall(callId: string | null, source: ToolSource): void {
    this.stats.toolCalls += 1;
    if (callId === null) return;
    const calls = this.state.turn.pendingCalls;
    calls[callId] = source;
    const ids = Object.keys(calls);
    for (let i = 0; i < ids.length - MAX_PENDING_CALLS; i += 1) delete calls[ids[i]!];
  }

  /** A tool result: taints the turn unless its call is known to be local. */
  toolResult(callId: string | null, fallback?: ToolSource): void {
    this.stats.toolResults += 1;
    const calls = this.state.turn.pendingCalls;
    let source = fallback;
    if (callId !== null && Object.hasOwn(calls, callId)) {
      source = calls[callId];
      delete calls[callId];
    }
    if (source !== 'local') this.taint();
  }

  recalled(count = 1): void {
    this.stats.recalledStripped += count;
  }

  /** Messages produced since the last drain. */
  drain(): TranscriptMessage[] {
    return this.pending.splice(0, this.pending.length);
  }

  private emit(role: 'user' | 'assistant', origin: OriginClass, raw: string): void {
    const stripped = stripRecalledText(normalizeWhitespace(raw), this.options.isRecalledText);
    this.stats.recalledStripped += stripped.stripped;
    if (stripped.text === '') return;
    const redacted = redactSecrets(stripped.text);
    this.stats.redactions += redacted.count;
    this.stats.messages += 1;
    this.pending.push({ role, text: redacted.text, origin, sourceLine: this.line, timestamp: this.timestamp });
  }
}
