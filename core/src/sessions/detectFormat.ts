import { claudeCodeTranscriptParser, looksLikeClaudeCodeLine } from './claudeCodeTranscript.js';
import { codexRolloutParser, looksLikeCodexLine } from './codexRollout.js';
import type { JsonRecord } from './jsonFields.js';
import { looksLikeOpenClawLine, openclawTranscriptParser } from './openclawTranscript.js';
import type { TranscriptParser } from './transcriptParser.js';
import type { TranscriptTool } from './types.js';

const PARSERS: Readonly<Record<TranscriptTool, TranscriptParser>> = {
  codex: codexRolloutParser,
  'claude-code': claudeCodeTranscriptParser,
  openclaw: openclawTranscriptParser,
};

export function parserFor(tool: TranscriptTool): TranscriptParser {
  return PARSERS[tool];
}

/** The transcript format a line belongs to, or null when the line does not say. */
export function detectTranscriptTool(record: JsonRecord): TranscriptTool | null {
  if (looksLikeCodexLine(record)) return 'codex';
  if (looksLikeOpenClawLine(record)) return 'openclaw';
  if (looksLikeClaudeCodeLine(record)) return 'claude-code';
  return null;
}
