import { useState } from 'react';

/** The first `page` items, growing by two pages at each "Show more". */
export function useShownCount(page: number): { shown: number; showMore: () => void } {
  const [shown, setShown] = useState(page);
  return { shown, showMore: () => setShown((n) => n + page * 2) };
}

/** "N of M things · Show more", when a list is longer than what is shown. */
export function ShowMore({ shown, total, noun, testId, onShowMore }: { shown: number; total: number; noun: string; testId?: string; onShowMore: () => void }) {
  if (total <= shown) return null;
  return (
    <div className="pager">
      <span>
        {shown} of {total} {noun}
      </span>
      <button type="button" className="button button-small" data-testid={testId} onClick={onShowMore}>
        Show more
      </button>
    </div>
  );
}
