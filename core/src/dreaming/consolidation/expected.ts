/** The exact entry line code writes for a candidate: the model must echo it, never reword it. */
import type { ConsolidationCandidate } from './prompt.js';
import { sourceReference } from '../curated/memoryFile.js';

export { sourceReference };

export function expectedEntryLine(candidate: ConsolidationCandidate): string {
  return `- ${candidate.text} ${sourceReference(candidate)}`;
}

/** The line as written to MEMORY.md: the expected entry plus the candidate's annotations (as in OpenClaw's files). */
export function writtenEntryLine(candidate: ConsolidationCandidate): string {
  const annotations = candidate.annotations ?? [];
  return annotations.length > 0 ? `${expectedEntryLine(candidate)} ${annotations.join(' ')}` : expectedEntryLine(candidate);
}

/** True when the model's resultEntry is the expected entry, with or without the leading "- " (and with or without annotations). */
export function isExpectedEntry(candidate: ConsolidationCandidate, resultEntry: string): boolean {
  const given = resultEntry.trim().replace(/^- /, '');
  return given === expectedEntryLine(candidate).slice(2) || given === writtenEntryLine(candidate).slice(2);
}
