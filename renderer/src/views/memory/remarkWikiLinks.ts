/**
 * A remark plugin: `[[Note name]]`, `[[Note name|shown text]]` and `#tag` in running text
 * become links the window handles itself (`#wiki=` and `#tag=` hrefs, safe for react-markdown's
 * URL filter). Code, inline code and existing links are left alone.
 */
interface MdNode {
  type: string;
  value?: string;
  url?: string;
  children?: MdNode[];
}

export const WIKI_HREF = '#wiki=';
export const TAG_HREF = '#tag=';

// A tag starts after a space or the line start, with a letter; `#1` or `a#b` are not tags.
const TOKEN = /\[\[([^[\]|\n]{1,300})(?:\|([^[\]\n]{1,300}))?\]\]|(^|[\s(])#([\p{L}][\p{L}\p{N}_/-]{0,60})/gu;
const SKIP = new Set(['code', 'inlineCode', 'link', 'linkReference', 'definition', 'html']);

export function remarkWikiLinks() {
  return (tree: MdNode): void => transform(tree);
}

function transform(node: MdNode): void {
  if (!node.children) return;
  const next: MdNode[] = [];
  for (const child of node.children) {
    if (child.type === 'text' && child.value) next.push(...splitText(child.value));
    else {
      if (!SKIP.has(child.type)) transform(child);
      next.push(child);
    }
  }
  node.children = next;
}

function splitText(text: string): MdNode[] {
  const out: MdNode[] = [];
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    const [whole, target, shown, lead, tag] = match;
    const start = match.index + (tag ? lead!.length : 0);
    if (start > last) out.push({ type: 'text', value: text.slice(last, start) });
    if (target) {
      out.push({ type: 'link', url: WIKI_HREF + encodeURIComponent(target.trim()), children: [{ type: 'text', value: (shown ?? target).trim() }] });
    } else {
      out.push({ type: 'link', url: TAG_HREF + encodeURIComponent(tag!), children: [{ type: 'text', value: `#${tag}` }] });
    }
    last = match.index + whole.length;
  }
  if (last === 0) return [{ type: 'text', value: text }];
  if (last < text.length) out.push({ type: 'text', value: text.slice(last) });
  return out;
}

// One rule for the window and the engine's backlinks.
export { resolveWikiLink } from '../../../../core/src/contract/index.js';
