import type { LineRange } from '../../store/memorySlice.js';

// The few hast shapes this plugin touches (kept local rather than depending on @types/hast).
interface HastPoint {
  line: number;
}
interface HastNode {
  type: string;
  position?: { start: HastPoint; end: HastPoint };
  properties?: Record<string, unknown>;
  children?: HastNode[];
}

/**
 * rehype plugin: marks the top-level rendered blocks (paragraphs, list items' lists, headings,
 * code blocks …) whose source lines overlap `range`, so a search hit is visible in rendered view.
 */
export function rehypeMarkHitBlocks(options: { range: LineRange | null }) {
  return (tree: HastNode): void => {
    const { range } = options;
    if (!range) return;
    for (const node of tree.children ?? []) {
      if (node.type !== 'element' || !node.position) continue;
      const overlaps = node.position.start.line <= range.endLine && node.position.end.line >= range.startLine;
      if (!overlaps) continue;
      const existing = node.properties?.className;
      const classes = Array.isArray(existing) ? existing : typeof existing === 'string' ? [existing] : [];
      node.properties = { ...node.properties, className: [...classes, 'hit-block'], dataHit: 'true' };
    }
  };
}
