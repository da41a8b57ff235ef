import { useEffect, useMemo, useRef } from 'react';
import Markdown, { type Components, type Options } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import type { LineRange } from '../../store/memorySlice.js';
import { rehypeMarkHitBlocks } from './markHitBlocks.js';

interface RenderedViewProps {
  text: string;
  highlight: LineRange | null;
  scrollRequest: number;
}

// Links open outside the app window; raw HTML in notes is never rendered (skipHtml).
const components: Components = {
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noreferrer noopener" />,
};

/** Markdown rendered with GitHub-flavoured extensions; blocks overlapping a search hit are marked. */
export function RenderedView({ text, highlight, scrollRequest }: RenderedViewProps) {
  const container = useRef<HTMLDivElement>(null);
  const rehypePlugins = useMemo<Options['rehypePlugins']>(() => [[rehypeMarkHitBlocks, { range: highlight }]], [highlight]);

  useEffect(() => {
    container.current?.querySelector('.hit-block')?.scrollIntoView({ block: 'center' });
  }, [scrollRequest, text, highlight]);

  return (
    <div className="markdown" ref={container} data-testid="rendered-view">
      <Markdown remarkPlugins={[remarkGfm]} rehypePlugins={rehypePlugins} skipHtml components={components}>
        {text}
      </Markdown>
    </div>
  );
}
