import type { SearchResult } from '../../../../core/src/contract/index.js';
import { formatScore } from '../format.js';

/**
 * Results come in the engine's order, which is the score's except where diversity (MMR) moves a
 * result that repeats one above it further down. A result shown below a lower score says why,
 * so the list never looks out of order without a reason.
 */
export function rankNotes(results: readonly SearchResult[]): Array<string | null> {
  return results.map((result, i) => {
    const above = results.slice(0, i).filter((r) => formatScore(r.score) !== formatScore(result.score) && r.score < result.score);
    if (above.length === 0) return null;
    const lowest = above.reduce((a, b) => (b.score < a.score ? b : a));
    const penalty = result.breakdown?.mmr ?? 0;
    return penalty > 0
      ? `Shown below a lower score (${formatScore(lowest.score)}): it repeats much of a result above, so it moved down for variety (penalty ${formatScore(penalty)}).`
      : `Shown below a lower score (${formatScore(lowest.score)}) in the engine's order.`;
  });
}
