import { useRef, useState, type ReactNode } from 'react';
import { classNames } from './classNames.js';
import { copyText } from './copyText.js';
import './TechnicalDetails.css';

/** One technical fact: what the engine calls a thing (an id, a file, a process), for a bug report or the command line. */
export interface TechnicalFact {
  label: string;
  value: string | null | undefined;
  testId?: string;
}

interface TechnicalDetailsProps {
  facts: readonly TechnicalFact[];
  /** The disclosure's label. */
  summary?: ReactNode;
  testId?: string;
  className?: string;
}

/**
 * Ids, hashes, process ids and file names the engine uses, kept out of the way: collapsed behind
 * "Details", with a button that copies them all as `label: value` lines.
 */
export function TechnicalDetails({ facts, summary = 'Details', testId, className }: TechnicalDetailsProps) {
  const shown = facts.filter((fact): fact is TechnicalFact & { value: string } => Boolean(fact.value));
  const list = useRef<HTMLDListElement>(null);
  const [copied, setCopied] = useState<'copied' | 'selected' | null>(null);
  if (shown.length === 0) return null;
  const text = shown.map((fact) => `${fact.label}: ${fact.value}`).join('\n');
  return (
    <details className={classNames('tech-details', className)} data-testid={testId} onToggle={() => setCopied(null)}>
      <summary>{summary}</summary>
      <dl ref={list} className="tech-details-list">
        {shown.map((fact) => (
          <div key={fact.label} className="tech-details-row">
            <dt>{fact.label}</dt>
            <dd>
              <code data-testid={fact.testId}>{fact.value}</code>
            </dd>
          </div>
        ))}
      </dl>
      <div className="tech-details-actions">
        <button
          type="button"
          className="button button-small"
          data-testid={testId ? `${testId}-copy` : undefined}
          onClick={() => void copyText(text, list.current).then(setCopied)}
        >
          Copy
        </button>
        <span className="muted" role="status">
          {copied === 'copied' && 'Copied'}
          {copied === 'selected' && 'Selected: press Ctrl+C (⌘C) to copy'}
        </span>
      </div>
    </details>
  );
}
