import fs from 'node:fs';
import path from 'node:path';
import type { SessionKind } from '../contract/index.js';
import { isRecord, stringField } from './jsonFields.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('sessions/openclaw');

/*
 * OpenClaw keeps an index beside the transcripts (agents/<agent>/sessions/sessions.json) keyed by
 * session key: agent:<agent>:main, agent:<agent>:subagent:<uuid>, agent:<agent>:cron:<job>[:run:<id>],
 * hook:gmail:<id>, … Each entry names its transcript by sessionId. The key says what a transcript
 * cannot: who started it.
 */

/** Session kind for an OpenClaw session key. */
export function sessionKindFromOpenClawKey(key: string): SessionKind {
  const parts = key.split(':');
  const rest = (parts[0] === 'agent' ? parts.slice(2) : parts).map((p) => p.toLowerCase());
  if (rest.includes('subagent')) return 'subagent';
  if (rest.includes('cron')) return 'cron';
  if (rest.includes('heartbeat')) return 'heartbeat';
  // Webhooks and mail hooks: the prompt is someone else's content.
  if (rest[0] === 'hook') return 'unknown';
  return 'interactive';
}

/** Session id → kind from an agent's sessions.json; empty when the index is missing or unreadable. */
export async function readOpenClawSessionKinds(sessionsDir: string): Promise<Map<string, SessionKind>> {
  const kinds = new Map<string, SessionKind>();
  let index: unknown;
  try {
    index = JSON.parse(await fs.promises.readFile(path.join(sessionsDir, 'sessions.json'), 'utf8'));
  } catch (error) {
    // No index (older OpenClaw) or a damaged one: the transcripts are read without their kinds.
    log.debug('The OpenClaw session index could not be read', { dir: sessionsDir, error });
    return kinds;
  }
  if (!isRecord(index)) return kinds;
  for (const [key, entry] of Object.entries(index)) {
    const sessionId = isRecord(entry) ? stringField(entry, 'sessionId') : null;
    if (sessionId !== null) kinds.set(sessionId, sessionKindFromOpenClawKey(key));
  }
  return kinds;
}
