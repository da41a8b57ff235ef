import { useLayoutEffect, useMemo, useRef } from 'react';
import Markdown, { type Components, type Options } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { queryStems } from '../highlight/highlightTerms.js';
import { rehypeHighlightTerms } from '../highlight/rehypeHighlightTerms.js';
import { snippetWindow } from './snippetText.js';

const remarkPlugins: Options['remarkPlugins'] = [remarkGfm];

// A snippet is a preview inside a clickable card: headings shrink to bold lines, links and images
// are text (the card opens the note), raw HTML is never rendered.
const components: Components = {
  h1: ({ children }) => <p className="snippet-heading">{children}</p>,
  h2: ({ children }) => <p className="snippet-heading">{children}</p>,
  h3: ({ children }) => <p className="snippet-heading">{children}</p>,
  h4: ({ children }) => <p className="snippet-heading">{children}</p>,
  h5: ({ children }) => <p className="snippet-heading">{children}</p>,
  h6: ({ children }) => <p className="snippet-heading">{children}</p>,
  a: ({ children }) => <span className="snippet-link">{children}</span>,
  img: ({ alt }) => (alt ? <span className="snippet-link">[{alt}]</span> : null),
};

/** A result's matching lines as rendered Markdown, with only the query's words marked. */
export function Snippet({ text, startLine, query }: { text: string; startLine: number; query: string }) {
  const stems = useMemo(() => queryStems(query), [query]);
  const shown = useMemo(() => snippetWindow(text, startLine, stems), [text, startLine, stems]);
  const rehypePlugins = useMemo<Options['rehypePlugins']>(() => [[rehypeHighlightTerms, { stems }]], [stems]);
  const box = useRef<HTMLDivElement>(null);

  // A long line can still push the first match below the card's height: scroll it into the card.
  useLayoutEffect(() => {
    const element = box.current;
    const mark = element?.querySelector('mark');
    if (!element || !(mark instanceof HTMLElement)) return;
    const top = mark.getBoundingClientRect().top - element.getBoundingClientRect().top + element.scrollTop;
    element.scrollTop = top + mark.offsetHeight > element.clientHeight ? Math.max(0, top - element.clientHeight / 3) : 0;
  }, [shown]);

  return (
    <div ref={box} className="snippet" data-testid="result-snippet" data-hidden-above={shown.hiddenAbove} data-hidden-below={shown.hiddenBelow}>
      {shown.hiddenAbove > 0 && (
        <div className="snippet-more" aria-hidden="true">
          …
        </div>
      )}
      <Markdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components} skipHtml>
        {shown.text}
      </Markdown>
      {shown.hiddenBelow > 0 && (
        <div className="snippet-more" aria-hidden="true">
          …
        </div>
      )}
    </div>
  );
}
