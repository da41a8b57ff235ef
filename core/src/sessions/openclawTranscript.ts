import path from 'node:path';
import { arrayField, isoTimestamp, isRecord, recordField, stringField, textBlocks, type JsonRecord } from './jsonFields.js';
import { classifyToolCall, isNetworkShellCommand } from './toolSources.js';
import type { TranscriptParser } from './transcriptParser.js';
import type { TranscriptSession } from './transcriptSession.js';

/*
 * OpenClaw session transcripts (~/.openclaw/agents/<agent>/sessions/<session id>.jsonl), the
 * pi-coding-agent format: a `{type: "session", version, id, timestamp, cwd}` header, then entries
 * `{type, id, parentId, timestamp, …}`; `message` entries hold `{role: user | assistant | toolResult |
 * bashExecution | custom | …, content}` with `toolCall` blocks in assistant content. Heartbeats run in
 * the main session by default, so kind comes from the first user message ([cron:…], [Subagent Context])
 * and heartbeat prompts are `system` wherever they appear.
 */

const SKIPPED_ENTRY_TYPES = new Set(['model_change', 'thinking_level_change', 'compaction', 'branch_summary', 'custom', 'custom_message', 'label', 'session_info']);
const INJECTED_ROLES = new Set(['custom', 'hookMessage', 'branchSummary', 'compactionSummary']);
// Replies that only acknowledge a poll.
const ACK_REPLIES = new Set(['HEARTBEAT_OK', 'NO_REPLY']);

// "[Thu 2026-05-07 00:23 GMT+8] " put in front of messages by the gateway.
const TIME_ENVELOPE = /^\[(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{4}-\d{2}-\d{2}[^\]\n]*\]\s*/;
// Queued system events prepended to the next prompt; "(untrusted)" ones carry outside content.
const SYSTEM_EVENT_LINE = /^System( \(untrusted\))?: \[[^\]\n]*\][^\n]*(?:\n|$)/;
const UNTRUSTED_METADATA = /^[^\n]*\(untrusted metadata\):[ \t]*\n```[a-z]*\n[\s\S]*?\n```[ \t]*(?:\n|$)/gm;
const UNTRUSTED_CONTEXT_HEADER = /^Untrusted context \(metadata[^\n]*$/gm;
const SECURITY_NOTICE = /SECURITY NOTICE:[\s\S]*?(?=<<<EXTERNAL_UNTRUSTED_CONTENT)/g;
const EXTERNAL_BLOCK = /<<<EXTERNAL_UNTRUSTED_CONTENT(?:\s[^>]*)?>>>([\s\S]*?)(?:<<<END_EXTERNAL_UNTRUSTED_CONTENT(?:\s[^>]*)?>>>|$)/g;
const EXTERNAL_CONTEXT_LINE = /^(?:Task|Job ID|Received): [^\n]*$/gm;

type UserMessageKind = 'heartbeat' | 'cron' | 'subagent' | 'scaffold' | 'result' | 'person';

/** Whether a first line looks like an OpenClaw (pi-coding-agent) session. */
export function looksLikeOpenClawLine(record: JsonRecord): boolean {
  const type = stringField(record, 'type');
  if (type === 'session') return 'version' in record || 'cwd' in record;
  return type === 'message' && isRecord(record.message) && ('parentId' in record || 'id' in record);
}

function classifyUserMessage(text: string): UserMessageKind {
  if (/^\[OpenClaw heartbeat poll\]/.test(text) || text.includes('Read HEARTBEAT.md if it exists')) return 'heartbeat';
  if (/^\[cron:[^\]\s]*/.test(text)) return 'cron';
  if (text.startsWith('[Subagent Context]')) return 'subagent';
  if (text.startsWith('Pre-compaction memory flush') || text.startsWith('A new session was started via /new or /reset')) return 'scaffold';
  // Sub-agent results and internal wake-ups (exec completion, …) deliver work done elsewhere.
  if (text.startsWith('[System Message]') || /^\[OpenClaw [^\]]*\]/.test(text)) return 'result';
  return 'person';
}

interface UserParts {
  text: string;
  external: string[];
  hasUntrustedEvents: boolean;
}

/** Separates the person's text from gateway envelopes, system events, metadata and external content. */
function splitUserText(raw: string): UserParts {
  let text = raw.replace(/\r\n?/g, '\n').trimStart();
  let hasUntrustedEvents = false;
  for (let guard = 0; guard < 64; guard += 1) {
    const event = SYSTEM_EVENT_LINE.exec(text);
    const envelope = event ? null : TIME_ENVELOPE.exec(text);
    if (event) hasUntrustedEvents ||= event[1] !== undefined;
    const match = event ?? envelope;
    if (!match) break;
    text = text.slice(match[0].length).trimStart();
  }
  const external: string[] = [];
  text = text
    .replace(UNTRUSTED_METADATA, '')
    .replace(SECURITY_NOTICE, '')
    .replace(EXTERNAL_BLOCK, (_m, body: string) => {
      // The block opens with "Source: …\nFrom: …\n---\n" before the content.
      const divider = body.indexOf('\n---\n');
      external.push(divider === -1 ? body : body.slice(divider + 5));
      return '';
    })
    .replace(UNTRUSTED_CONTEXT_HEADER, '');
  if (external.length > 0) text = text.replace(EXTERNAL_CONTEXT_LINE, '');
  text = text.replace(/^\[Queued messages while agent was busy\]\s*/, '');
  return { text: text.trim(), external, hasUntrustedEvents };
}

function decideKind(kind: UserMessageKind, session: TranscriptSession): void {
  const format = session.state.format;
  if (format.kindDecided === true) {
    // A main session that opened with a heartbeat poll is the person's once they write in it.
    if (format.kindProvisional === true && kind === 'person') {
      session.setKind('interactive');
      format.kindProvisional = false;
    }
    return;
  }
  format.kindDecided = true;
  if (kind === 'cron' || kind === 'subagent') session.setKind(kind);
  else if (kind === 'heartbeat') {
    session.setKind('heartbeat');
    format.kindProvisional = true;
  } else session.setKind('interactive');
}

function handleUser(message: JsonRecord, session: TranscriptSession): void {
  let hasToolResult = false;
  for (const block of arrayField(message, 'content')) {
    if (isRecord(block) && (block.type === 'toolResult' || block.type === 'tool_result')) {
      hasToolResult = true;
      session.toolResult(stringField(block, 'toolCallId') ?? stringField(block, 'tool_use_id'));
    }
  }
  if (hasToolResult) return;
  const hasImage = arrayField(message, 'content').some((block) => isRecord(block) && block.type === 'image');
  const parts = splitUserText(textBlocks(message.content).join('\n\n'));
  const kind = classifyUserMessage(parts.text);
  if (kind === 'result') {
    session.taint();
    return;
  }
  if (parts.text !== '' || parts.external.length > 0 || hasImage) {
    session.startTurn();
    decideKind(kind, session);
  }
  if (parts.text !== '') session.userText(parts.text, kind === 'person' ? session.userOrigin() : 'system');
  for (const external of parts.external) session.externalText('user', external);
  if (parts.hasUntrustedEvents) session.taint();
}

function handleAssistant(message: JsonRecord, session: TranscriptSession): void {
  const texts: string[] = [];
  for (const block of typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : arrayField(message, 'content')) {
    if (!isRecord(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    else if (block.type === 'toolCall' || block.type === 'tool_use') {
      const name = stringField(block, 'name') ?? '';
      const input = block.arguments ?? block.input;
      session.toolCall(stringField(block, 'id'), classifyToolCall('openclaw-jsonl', name, input, { localMcpServers: session.options.localMcpServers }));
    }
  }
  const text = texts.join('\n\n');
  if (!ACK_REPLIES.has(text.trim())) session.assistantText(text);
}

function handleMessage(message: JsonRecord, session: TranscriptSession): boolean {
  const role = stringField(message, 'role') ?? '';
  switch (role) {
    case 'user':
      handleUser(message, session);
      return true;
    case 'assistant':
      handleAssistant(message, session);
      return true;
    case 'toolResult': {
      const toolName = stringField(message, 'toolName');
      const fallback = toolName === null ? undefined : classifyToolCall('openclaw-jsonl', toolName, undefined, { localMcpServers: session.options.localMcpServers });
      session.toolResult(stringField(message, 'toolCallId'), fallback);
      return true;
    }
    case 'bashExecution': {
      // A command the person ran with "!"; its output enters the context unless excluded ("!!").
      const command = stringField(message, 'command') ?? '';
      if (message.excludeFromContext !== true && isNetworkShellCommand(command)) session.taint();
      return true;
    }
    default:
      return INJECTED_ROLES.has(role);
  }
}

export const openclawTranscriptParser: TranscriptParser = {
  format: 'openclaw-jsonl',
  sessionIdFromPath: (filePath) => path.basename(filePath).replace(/\.jsonl$/i, ''),
  initialKind: () => 'unknown',
  timestampOf: (record) => isoTimestamp(record.timestamp) ?? isoTimestamp(recordField(record, 'message')?.timestamp),
  handleLine(record, session) {
    const type = stringField(record, 'type');
    if (type === 'session') {
      const meta = session.meta;
      meta.sessionId = stringField(record, 'id') ?? meta.sessionId;
      meta.cwd = stringField(record, 'cwd') ?? meta.cwd;
      meta.startedAt = isoTimestamp(record.timestamp) ?? meta.startedAt;
      return true;
    }
    if (type === 'message') {
      const message = recordField(record, 'message');
      return message !== null && handleMessage(message, session);
    }
    return type !== null && SKIPPED_ENTRY_TYPES.has(type);
  },
};
