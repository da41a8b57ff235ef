import { useEffect, useMemo, useRef } from 'react';
import { wikiLinkOutsideWorkspace } from '../../../../core/src/contract/index.js';
import Markdown, { type Components, type Options } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import type { LineRange } from '../../store/memorySlice.js';
import { useReverieStore } from '../../store/useReverie.js';
import { rehypeMarkHitBlocks } from './markHitBlocks.js';
import { TAG_HREF, WIKI_HREF, remarkWikiLinks, resolveWikiLink } from './remarkWikiLinks.js';

interface RenderedViewProps {
  text: string;
  highlight: LineRange | null;
  scrollRequest: number;
}

const remarkPlugins: Options['remarkPlugins'] = [remarkGfm, remarkWikiLinks];

/** Markdown rendered with GitHub-flavoured extensions; blocks overlapping a search hit are marked. */
export function RenderedView({ text, highlight, scrollRequest }: RenderedViewProps) {
  const container = useRef<HTMLDivElement>(null);
  const store = useReverieStore();
  // Wiki-links open the note (or offer to create it), tags search; other links open outside the
  // app window. Raw HTML in notes is never rendered (skipHtml).
  const components = useMemo<Components>(
    () => ({
      a: ({ node: _node, href, children, ...props }) => {
        if (href?.startsWith(WIKI_HREF)) {
          const target = decodeURIComponent(href.slice(WIKI_HREF.length));
          const outside = wikiLinkOutsideWorkspace(target);
          const found = outside ? null : resolveWikiLink(target, store.getState().memory.files.map((f) => f.path));
          if (outside) {
            return (
              <button type="button" className="wiki-link is-outside" data-testid="wiki-link" data-target={target} title={outside} onClick={() => store.getState().memory.refuseLink(outside)}>
                {children}
              </button>
            );
          }
          const open = (): void => {
            const state = store.getState();
            if (found) void state.memory.openFile(found);
            else state.notes.requestNewNote(target);
          };
          return (
            <button type="button" className={`wiki-link${found ? '' : ' is-missing'}`} data-testid="wiki-link" data-target={target} title={found ? `Open ${found}` : `No note "${target}" yet: create it`} onClick={open}>
              {children}
            </button>
          );
        }
        if (href?.startsWith(TAG_HREF)) {
          const tag = decodeURIComponent(href.slice(TAG_HREF.length));
          const search = (): void => {
            const state = store.getState();
            state.app.focusSearch();
            state.search.setQuery(`#${tag}`);
          };
          return (
            <button type="button" className="tag-link" data-testid="tag-link" title={`Search for #${tag}`} onClick={search}>
              {children}
            </button>
          );
        }
        return (
          <a {...props} href={href} target="_blank" rel="noreferrer noopener">
            {children}
          </a>
        );
      },
    }),
    [store],
  );
  const rehypePlugins = useMemo<Options['rehypePlugins']>(() => [[rehypeMarkHitBlocks, { range: highlight }]], [highlight]);

  useEffect(() => {
    container.current?.querySelector('.hit-block')?.scrollIntoView({ block: 'center' });
  }, [scrollRequest, text, highlight]);

  return (
    <div className="markdown" ref={container} data-testid="rendered-view">
      <Markdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} skipHtml components={components}>
        {text}
      </Markdown>
    </div>
  );
}
