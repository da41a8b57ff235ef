import path from 'node:path';
import type { SessionKind } from '../contract/index.js';
import { isoTimestamp, isRecord, recordField, stringField, textBlocks, type JsonRecord } from './jsonFields.js';
import { classifyToolCall } from './toolSources.js';
import type { TranscriptParser } from './transcriptParser.js';
import type { TranscriptSession } from './transcriptSession.js';

/*
 * Codex rollouts ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl): `{timestamp, type, payload}`
 * lines of type session_meta, response_item, event_msg, turn_context, compacted. Conversation text
 * is taken from response_item messages only; event_msg user_message/agent_message repeat it.
 * Early rollouts had a bare `{id, timestamp, instructions}` first line and bare response items.
 */

const WRAPPER_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);
const RESPONSE_ITEM_TYPES = new Set([
  'message', 'reasoning', 'function_call', 'function_call_output', 'custom_tool_call', 'custom_tool_call_output',
  'local_shell_call', 'web_search_call', 'tool_search_call', 'tool_search_output', 'image_generation_call',
  'compaction', 'compaction_summary', 'context_compaction', 'ghost_snapshot', 'additional_tools', 'agent_message', 'other',
]);
// Context Codex records as user-role messages; the first three carry instructions or memory.
const CONTEXT_TAGS = new Set([
  'environment_context', 'user_instructions', 'skill', 'user_shell_command', 'turn_aborted', 'subagent_notification',
  'subagents', 'plugins', 'collaboration_mode', 'permissions_instructions',
]);
const RECALLED_CONTEXT = new Set(['agents_md', 'user_instructions', 'skill']);
// Older rollouts joined instructions and the request in one message under this heading.
const USER_MESSAGE_BEGIN = '## My request for Codex:';
const UUID_AT_END = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** Whether a first line looks like a Codex rollout. */
export function looksLikeCodexLine(record: JsonRecord): boolean {
  const type = stringField(record, 'type');
  if (type !== null) return WRAPPER_TYPES.has(type) && isRecord(record.payload);
  return 'record_type' in record || (typeof record.id === 'string' && typeof record.timestamp === 'string' && ('instructions' in record || 'git' in record));
}

/** Which context fragment a user-role text is, if it is one (it then is not the person speaking). */
function contextFragment(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed.startsWith('# AGENTS.md instructions for ') && /<\/INSTRUCTIONS>$/i.test(trimmed)) return 'agents_md';
  const open = /^<([a-z][a-z0-9_]*)>/i.exec(trimmed);
  const tag = open?.[1]?.toLowerCase();
  if (tag === undefined || !trimmed.toLowerCase().endsWith(`</${tag}>`)) return null;
  return CONTEXT_TAGS.has(tag) || tag.includes('_') ? tag : null;
}

/** session_meta.source is "cli" | "vscode" | "exec" | "mcp" | {subagent: …} | {custom: …} | …; originator names the client. */
export function codexSessionKind(source: unknown, originator: string | null): SessionKind {
  if (typeof source === 'string') {
    const value = source.toLowerCase();
    if (value === 'cli' || value === 'vscode') return 'interactive';
    // Driven by a script or another program, not typed by the person.
    if (value === 'exec' || value === 'mcp' || value === 'appserver') return 'unknown';
  } else if (isRecord(source)) {
    if ('subagent' in source || 'sub_agent' in source || 'subAgent' in source) return 'subagent';
    if ('custom' in source) return 'interactive';
    return 'unknown';
  }
  if (originator !== null) {
    if (/exec/i.test(originator)) return 'unknown';
    if (/cli|vscode|tui|desktop|app/i.test(originator)) return 'interactive';
  }
  return source === undefined || source === null ? 'interactive' : 'unknown';
}

function handleSessionMeta(payload: JsonRecord, lineTimestamp: string | null, session: TranscriptSession): void {
  // A resumed or forked rollout may repeat meta lines; the first one describes this file.
  if (session.state.format.metaSeen === true) return;
  session.state.format.metaSeen = true;
  const meta = session.meta;
  const id = stringField(payload, 'id');
  if (id) meta.sessionId = id;
  meta.cwd = stringField(payload, 'cwd') ?? meta.cwd;
  meta.startedAt = isoTimestamp(payload.timestamp) ?? lineTimestamp ?? meta.startedAt;
  session.setKind(codexSessionKind(payload.source, stringField(payload, 'originator')));
}

function handleUserMessage(content: unknown, session: TranscriptSession): void {
  const spoken: string[] = [];
  for (const text of textBlocks(content, ['input_text', 'text'])) {
    const fragment = contextFragment(text);
    if (fragment !== null) {
      if (RECALLED_CONTEXT.has(fragment)) session.recalled();
      continue;
    }
    const begin = text.indexOf(USER_MESSAGE_BEGIN);
    if (begin === -1) {
      spoken.push(text);
      continue;
    }
    if (text.slice(0, begin).trim() !== '') session.recalled();
    spoken.push(text.slice(begin + USER_MESSAGE_BEGIN.length));
  }
  // A message of only images is still the person speaking: it starts a turn.
  const hasImage = Array.isArray(content) && content.some((item) => isRecord(item) && item.type === 'input_image');
  if (spoken.length === 0 && !hasImage) return;
  session.startTurn();
  session.userText(spoken.join('\n\n'));
}

function handleResponseItem(item: JsonRecord, session: TranscriptSession): boolean {
  const type = stringField(item, 'type');
  const callId = stringField(item, 'call_id');
  const classify = (name: string, input: unknown) =>
    classifyToolCall('codex-rollout', name, input, { localMcpServers: session.options.localMcpServers });
  switch (type) {
    case 'message': {
      const role = stringField(item, 'role');
      if (role === 'user') handleUserMessage(item.content, session);
      else if (role === 'assistant') session.assistantText(textBlocks(item.content, ['output_text', 'text']).join('\n\n'));
      // developer/system messages are prompts, not conversation.
      return true;
    }
    case 'function_call':
    case 'custom_tool_call': {
      const name = stringField(item, 'name') ?? '';
      const namespace = stringField(item, 'namespace');
      session.toolCall(callId, classify(namespace ? `${namespace}__${name}` : name, item.arguments ?? item.input));
      return true;
    }
    case 'local_shell_call':
      session.toolCall(callId ?? stringField(item, 'id'), classify('local_shell', recordField(item, 'action')));
      return true;
    case 'function_call_output':
    case 'custom_tool_call_output':
      session.toolResult(callId);
      return true;
    case 'web_search_call':
      // The search results reach the model with the call itself; there is no separate output item.
      session.toolCall(null, 'network');
      session.toolResult(null, 'network');
      return true;
    case 'tool_search_call':
      session.toolCall(callId, 'local');
      return true;
    case 'tool_search_output':
      session.toolResult(callId, 'local');
      return true;
    default:
      return type !== null && RESPONSE_ITEM_TYPES.has(type);
  }
}

export const codexRolloutParser: TranscriptParser = {
  format: 'codex-rollout',
  sessionIdFromPath(filePath) {
    const stem = path.basename(filePath).replace(/\.jsonl$/i, '');
    return UUID_AT_END.exec(stem)?.[1] ?? stem;
  },
  initialKind: () => 'interactive',
  timestampOf: (record) => isoTimestamp(record.timestamp),
  handleLine(record, session) {
    const type = stringField(record, 'type');
    if (type === null) {
      if ('record_type' in record) return true;
      if (typeof record.id !== 'string') return false;
      handleSessionMeta(record, isoTimestamp(record.timestamp), session);
      return true;
    }
    switch (type) {
      case 'session_meta': {
        const payload = recordField(record, 'payload');
        if (payload) handleSessionMeta(payload, isoTimestamp(record.timestamp), session);
        return payload !== null;
      }
      case 'turn_context':
        session.meta.cwd ??= stringField(recordField(record, 'payload') ?? {}, 'cwd');
        return true;
      case 'event_msg':
      case 'compacted':
        return true;
      case 'response_item': {
        const payload = recordField(record, 'payload');
        return payload !== null && handleResponseItem(payload, session);
      }
      default:
        return RESPONSE_ITEM_TYPES.has(type) && handleResponseItem(record, session);
    }
  },
};
