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
    const lines = out.split('\n');
    const kept: string[] = [];
    let inRun = false;
    for (const line of lines) {
      const trimmed = line.trim();
      const isRecalled = trimmed !== '' && isRecalledText(trimmed);
      if (isRecalled && !inRun) stripped += 1;
      inRun = isRecalled;
      if (!isRecalled) kept.push(line);
    }
    // Nothing recalled (most messages): the text stays as it was, not joined again.
    if (kept.length < lines.length) out = kept.join('\n');
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

/**
 * The keys of the workspace's memory lines as sorted, distinct 53-bit hashes in shared memory:
 * every reader thread searches one copy (a workspace of 100 MB of notes gave each reader its own
 * copy of every line and a set of their keys, ~400 MB across two readers), at 8 bytes a line.
 * Two different lines share a hash with odds of about one in 2^53 / lines.
 */
export function recalledKeyHashes(memoryLines: Iterable<string>): Float64Array {
  const hashes: number[] = [];
  for (const line of memoryLines) {
    const key = recalledLineKey(line);
    if (key.length >= MIN_RECALLED_LINE_CHARS) hashes.push(hashRecalledKey(key));
  }
  hashes.sort((a, b) => a - b);
  let distinct = 0;
  for (let i = 0; i < hashes.length; i++) if (i === 0 || hashes[i] !== hashes[i - 1]) hashes[distinct++] = hashes[i]!;
  const shared = new Float64Array(new SharedArrayBuffer(distinct * Float64Array.BYTES_PER_ELEMENT));
  for (let i = 0; i < distinct; i++) shared[i] = hashes[i]!;
  return shared;
}

/** An `isRecalledText` check over `recalledKeyHashes` (a binary search per line). */
export function recalledHashMatcher(sortedHashes: Float64Array): RecalledTextCheck {
  if (sortedHashes.length === 0) return () => false;
  return (normalizedLine) => {
    const key = recalledLineKey(normalizedLine);
    if (key.length < MIN_RECALLED_LINE_CHARS) return false;
    const hash = hashRecalledKey(key);
    let lo = 0;
    let hi = sortedHashes.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = sortedHashes[mid]!;
      if (at === hash) return true;
      if (at < hash) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  };
}

/** Builds an `isRecalledText` check from the workspace's memory lines (MEMORY.md, USER.md, notes). */
export function recalledLineMatcher(memoryLines: Iterable<string>): RecalledTextCheck {
  return recalledHashMatcher(recalledKeyHashes(memoryLines));
}

/** A 53-bit hash of a line key (two 32-bit multiply-xorshift lanes mixed together; exact in a double). */
export function hashRecalledKey(key: string): number {
  let a = 0x2f6b1c3d ^ key.length;
  let b = 0x71a3e95b;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x9e3779b1);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  a ^= Math.imul(b ^ (b >>> 16), 0x85ebca6b);
  a = Math.imul(a ^ (a >>> 13), 0xc2b2ae35);
  b ^= Math.imul(a ^ (a >>> 16), 0x27d4eb2f);
  b = Math.imul(b ^ (b >>> 15), 0x165667b1);
  return (b & 0x1fffff) * 0x100000000 + (a >>> 0);
}
