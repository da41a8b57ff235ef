import type { Intent, OperationOutput } from '../../contract/index.js';

/**
 * The hook's answer in the tools' format: for SessionStart and UserPromptSubmit, Claude Code's
 * (and Codex's) `hookSpecificOutput.additionalContext`, which the tool adds to the model's
 * context; nothing at all when there is nothing to add.
 */
export function contextAnswer(event: 'SessionStart' | 'UserPromptSubmit', text: string): string {
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } })}\n`;
}

const TOOLS_LINE = 'Reverie tools: memory_search and memory_get to look things up, memory_store to keep a durable fact, memory_update and memory_forget to correct your notes.';

export function sessionStartText(bootstrap: Pick<OperationOutput<'context.bootstrap'>, 'text'>, armed: ReadonlyArray<Pick<Intent, 'description' | 'keywords'>>, project: string | null): string {
  const parts = [bootstrap.text.trim()];
  if (armed.length > 0) parts.push(`Standing intents (bring them up when they apply):\n${armed.map((i) => `- ${i.description} (keywords: ${i.keywords.join(', ')})`).join('\n')}`);
  if (project) parts.push(`Project key for this repository: ${project}.`);
  parts.push(TOOLS_LINE);
  return parts.join('\n\n');
}

export function promptText(match: { entries: ReadonlyArray<{ text: string }>; intents: ReadonlyArray<Pick<Intent, 'description'>> }, notice: string): string | null {
  if (match.entries.length === 0 && match.intents.length === 0) return null;
  const parts = [notice];
  if (match.entries.length > 0) parts.push(`Memory that matches this message:\n\n${match.entries.map((e) => e.text).join('\n\n')}`);
  if (match.intents.length > 0) parts.push(`Standing intents that fire now:\n${match.intents.map((i) => `- ${i.description}`).join('\n')}`);
  return parts.join('\n\n');
}

/** PreCompact: the tools show a hook's plain stdout; this asks the model to keep what would be lost. */
export const PRE_COMPACT_TEXT =
  'Before this conversation is compacted: store any durable fact, decision or preference from it that is not saved yet with memory_store (one self-contained statement each).';
