import { useMemo } from 'react';
import { highlightTerms } from './highlightTerms.js';

export function HighlightedText({ text, query }: { text: string; query: string }) {
  const pieces = useMemo(() => highlightTerms(text, query), [text, query]);
  return (
    <>
      {pieces.map((piece, i) => (piece.isMatch ? <mark key={i}>{piece.text}</mark> : <span key={i}>{piece.text}</span>))}
    </>
  );
}
