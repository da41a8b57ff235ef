import type { Element, ElementContent, Root, RootContent } from 'hast';
import { highlightTerms } from './highlightTerms.js';

/** A rehype plugin: wraps the query's words in `<mark>` inside rendered Markdown (never inside code). */
export function rehypeHighlightTerms(options: { stems: ReadonlySet<string> }) {
  return (tree: Root): void => {
    if (options.stems.size > 0) markChildren(tree, options.stems);
  };
}

function markChildren(parent: Root | Element, stems: ReadonlySet<string>): void {
  const next: Array<RootContent | ElementContent> = [];
  for (const child of parent.children) {
    if (child.type === 'text') {
      for (const piece of highlightTerms(child.value, stems)) {
        next.push(piece.isMatch ? { type: 'element', tagName: 'mark', properties: {}, children: [{ type: 'text', value: piece.text }] } : { type: 'text', value: piece.text });
      }
      continue;
    }
    if (child.type === 'element' && child.tagName !== 'code' && child.tagName !== 'pre') markChildren(child, stems);
    next.push(child);
  }
  parent.children = next as typeof parent.children;
}
