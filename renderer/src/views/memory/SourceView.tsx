import { useEffect, useMemo, useRef } from 'react';
import type { LineRange } from '../../store/memorySlice.js';
import { HighlightedText } from '../highlight/HighlightedText.js';

interface SourceViewProps {
  text: string;
  highlight: LineRange | null;
  /** Words to mark inside the highlighted lines. */
  query: string | null;
  /** Changes whenever the view should scroll to the highlight again. */
  scrollRequest: number;
  /** Clicking a line number opens the Provenance inspector for that line. */
  onLineInfo?: (line: number) => void;
}

/** The raw Markdown with line numbers; lines of a search hit are highlighted and scrolled into view. */
export function SourceView({ text, highlight, query, scrollRequest, onLineInfo }: SourceViewProps) {
  const lines = useMemo(() => text.split(/\r?\n/), [text]);
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    container.current?.querySelector('.src-line.is-hit')?.scrollIntoView({ block: 'center' });
  }, [scrollRequest, text, highlight]);

  const isHit = (line: number): boolean => highlight !== null && line >= highlight.startLine && line <= highlight.endLine;

  return (
    <div className="source-view" ref={container} data-testid="source-view" role="region" aria-label="File source with line numbers">
      {lines.map((line, i) => {
        const number = i + 1;
        const hit = isHit(number);
        return (
          <div
            key={number}
            className={`src-line${hit ? ' is-hit' : ''}`}
            data-line={number}
            data-testid={hit ? 'hit-line' : undefined}
          >
            {onLineInfo ? (
              // Out of the tab order (a long file would be thousands of stops): the doc header's
              // "Where from?" button reaches the same inspector from the keyboard.
              <button
                type="button"
                className="src-number src-number-button"
                data-testid="line-number"
                tabIndex={-1}
                title={`Where is line ${number} from?`}
                aria-label={`Where is line ${number} from?`}
                onClick={() => onLineInfo(number)}
              >
                <span className="src-info" aria-hidden="true">
                  i
                </span>
                {number}
              </button>
            ) : (
              <span className="src-number" aria-hidden="true">
                {number}
              </span>
            )}
            <span className="src-text">
              {line === '' ? '\u200b' : hit && query ? <HighlightedText text={line} query={query} /> : line}
            </span>
          </div>
        );
      })}
    </div>
  );
}
