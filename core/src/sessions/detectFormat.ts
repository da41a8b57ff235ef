import type { TranscriptFormat } from '../contract/index.js';
import { claudeCodeTranscriptParser, looksLikeClaudeCodeLine } from './claudeCodeTranscript.js';
import { codexRolloutParser, looksLikeCodexLine } from './codexRollout.js';
import type { JsonRecord } from './jsonFields.js';
import { looksLikeOpenClawLine, openclawTranscriptParser } from './openclawTranscript.js';
import type { TranscriptParser } from './transcriptParser.js';

/** Every transcript format Reverie reads (tools name theirs in core/src/contract/tools.ts). */
const PARSERS: ReadonlyArray<{ parser: TranscriptParser; looksLike(record: JsonRecord): boolean }> = [
  { parser: codexRolloutParser, looksLike: looksLikeCodexLine },
  { parser: openclawTranscriptParser, looksLike: looksLikeOpenClawLine },
  { parser: claudeCodeTranscriptParser, looksLike: looksLikeClaudeCodeLine },
];

export function parserFor(format: TranscriptFormat): TranscriptParser {
  const found = PARSERS.find((p) => p.parser.format === format);
  if (!found) throw new Error(`No parser for the transcript format "${format}".`);
  return found.parser;
}

/** The transcript format a line belongs to, or null when the line does not say. */
export function detectTranscriptFormat(record: JsonRecord): TranscriptFormat | null {
  return PARSERS.find((p) => p.looksLike(record))?.parser.format ?? null;
}
