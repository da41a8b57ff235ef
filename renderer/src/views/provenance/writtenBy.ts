import { toolLabel, type ProvenanceChain } from '../../../../core/src/contract/index.js';
import type { TechnicalFact } from '../../components/TechnicalDetails.js';

type WrittenBy = NonNullable<ProvenanceChain['lines'][number]['writtenBy']>;

/** A write said in words ("imported from Claude Code, MEMORY.md") and the engine's own record of it, for Details. */
export interface DescribedWrite {
  summary: string;
  facts: TechnicalFact[];
}

/** What an import records per file (importProvenance.ts writes it as JSON). */
interface ImportDetail {
  originalPath?: unknown;
  collection?: unknown;
  importId?: unknown;
}

const AGENT_ACTIONS: Record<string, string> = { store: 'stored', update: 'updated', forget: 'forgot' };

export function describeWrite(writtenBy: WrittenBy): DescribedWrite {
  const { via, actor, detail } = writtenBy;
  if (via === 'import') {
    const parsed = parseImportDetail(detail);
    const from = actor ? `imported from ${toolLabel(actor)}` : 'imported';
    const file = typeof parsed?.originalPath === 'string' ? baseName(parsed.originalPath) : null;
    return {
      summary: file ? `${from} (${file})` : from,
      facts: [
        { label: 'Original file', value: typeof parsed?.originalPath === 'string' ? parsed.originalPath : null },
        { label: 'Collection', value: typeof parsed?.collection === 'string' ? parsed.collection : null },
        { label: 'Import', value: typeof parsed?.importId === 'string' ? parsed.importId : null },
        { label: 'Recorded', value: parsed ? null : detail },
      ],
    };
  }
  if (via === 'dreaming') {
    return { summary: 'promoted by dreaming', facts: [{ label: 'Dream run', value: actor }, { label: 'Candidate', value: detail }] };
  }
  const action = detail ? (AGENT_ACTIONS[detail] ?? null) : null;
  return {
    summary: `${action ? `${action} by` : 'written by'} the agent ${actor ?? '(unnamed)'}`,
    facts: action ? [] : [{ label: 'Recorded', value: detail }],
  };
}

function parseImportDetail(detail: string | null): ImportDetail | null {
  if (!detail) return null;
  try {
    const value: unknown = JSON.parse(detail);
    return typeof value === 'object' && value !== null ? (value as ImportDetail) : null;
  } catch {
    // An older import recorded plain text: it is shown as recorded, in Details.
    return null;
  }
}

function baseName(filePath: string): string {
  return filePath.split(/[\\/]/).filter(Boolean).pop() ?? filePath;
}
