import { isDirective } from './curated/directive.js';

/** `[2026-11-20 10:00] user: ` — how an indexed transcript line starts. */
const TRANSCRIPT_PREFIX = /^\[[^\]]{1,40}\]\s*(?:user|assistant):\s*/i;
/** A request to the agent ("Summarise…", "can you…"): conversation, not something to remember. */
const REQUEST_START =
  /^(?:(?:can|could|would|will) you|let['’]?s|please (?!always|never)|summari[sz]e|find|check|fix|show|tell|explain|make|add|create|update|run|look|open|read|list|search|help|give|try|go|do|write|draft|review|refactor|debug|implement|rename|delete|remove|move|install|deploy|build|test)\b/i;

export function withoutTranscriptPrefix(text: string): string {
  return text.replace(TRANSCRIPT_PREFIX, '');
}

/**
 * Whether a transcript line states something worth remembering (a fact or a standing
 * preference) rather than asking for something in the moment: questions and task requests
 * are how a session is driven, not what the person wants kept.
 */
export function isStatementWorthKeeping(text: string): boolean {
  const words = withoutTranscriptPrefix(text).trim();
  if (isDirective(words) && !REQUEST_START.test(words)) return true;
  if (/\?\s*$/.test(words)) return false;
  return !REQUEST_START.test(words);
}
