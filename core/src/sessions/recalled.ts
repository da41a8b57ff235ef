import { normalizeWhitespace } from './normalize.js';

/** Decides whether one whitespace-normalised line is memory the session recalled (not new information). */
export type RecalledTextCheck = (normalizedLine: string) => boolean;

export interface RecalledStripResult {
  text: string;
  /** Blocks or runs of lines removed. */
  stripped: number;
}

/**
 * Blocks that tools inject into a conversation from memory or context rather than from the person:
 * Reverie's own framing of memory returned to agents, Claude Code system reminders and prompt hooks,
 * OpenClaw memory plugins' auto-recall, Codex's AGENTS.md / user-instructions bootstrap.
 * An opening tag without its close (a truncated injection) strips to the end of the text.
 */
const INJECTED_BLOCKS: readonly RegExp[] = [
  /<reverie-memory\b[^>]*>[\s\S]*?(?:<\/reverie-memory>|$)/gi,
  /<system-reminder>[\s\S]*?(?:<\/system-reminder>|$)/gi,
  /<user-prompt-submit-hook>[\s\S]*?(?:<\/user-prompt-submit-hook>|$)/gi,
  /<relevant[-_]memories>[\s\S]*?(?:<\/relevant[-_]memories>|$)/gi,
  /<user_instructions>[\s\S]*?(?:<\/user_instructions>|$)/gi,
  /# AGENTS\.md instructions for [^\n]*\n+<INSTRUCTIONS>[\s\S]*?(?:<\/INSTRUCTIONS>|$)/g,
];

// Marks where a block was cut out; never present in normalised text (control characters are removed).
const REMOVED = '\u0001';

/** Removes injected memory blocks and lines the caller recognises as recalled memory. */
export function stripRecalledText(text: string, isRecalledText?: RecalledTextCheck): RecalledStripResult {
  let stripped = 0;
  let out = text;
  // Every injected block starts with a tag: text without '<' (most of it) skips the six scans.
  if (out.includes('<')) {
    for (const pattern of INJECTED_BLOCKS) {
      out = out.replace(pattern, () => {
        stripped += 1;
        return REMOVED;
      });
    }
  }
  // A line that held only injected blocks goes away entirely instead of leaving a blank line.
  if (stripped > 0) out = out.split('\n').filter((line) => line.replaceAll(REMOVED, '').trim() !== '' || !line.includes(REMOVED)).join('\n').replaceAll(REMOVED, ' ');
  if (isRecalledText) {
    const kept: string[] = [];
    let inRun = false;
    for (const line of out.split('\n')) {
      const isRecalled = line.trim() !== '' && isRecalledText(line.trim());
      if (isRecalled && !inRun) stripped += 1;
      inRun = isRecalled;
      if (!isRecalled) kept.push(line);
    }
    out = kept.join('\n');
  }
  return { text: stripped > 0 ? normalizeWhitespace(out) : out, stripped };
}

// Below this length a line ("Thanks!", "## Notes") is too generic to call a recalled fact.
const MIN_RECALLED_LINE_CHARS = 12;

/** Comparison key shared by memory lines and transcript lines: normalised, bullet-free, case-folded. */
export function recalledLineKey(line: string): string {
  const normalized = normalizeWhitespace(line).replace(/^(?:[-*+•]|\d+[.)])\s+/, '');
  return (normalized.includes('<!--') ? normalized.replace(/\s*<!--[\s\S]*?-->\s*/g, ' ') : normalized).trim().toLowerCase();
}

/** Builds an `isRecalledText` check from the workspace's memory lines (MEMORY.md, USER.md, notes). */
export function recalledLineMatcher(memoryLines: Iterable<string>): RecalledTextCheck {
  const keys = new Set<string>();
  for (const line of memoryLines) {
    const key = recalledLineKey(line);
    if (key.length >= MIN_RECALLED_LINE_CHARS) keys.add(key);
  }
  if (keys.size === 0) return () => false;
  return (normalizedLine) => {
    const key = recalledLineKey(normalizedLine);
    return key.length >= MIN_RECALLED_LINE_CHARS && keys.has(key);
  };
}
