/** Cuts long text to `maxChars`, keeping its head (70%) and tail (20%): a file's title and newest lines both survive. */
export interface TruncatedText {
  text: string;
  truncated: boolean;
}

const HEAD_SHARE = 0.7;
const TAIL_SHARE = 0.2;

export function truncateHeadTail(text: string, maxChars: number): TruncatedText {
  const max = Math.max(0, Math.floor(maxChars));
  if (text.length <= max) return { text, truncated: false };
  const head = Math.floor(max * HEAD_SHARE);
  const tail = Math.floor(max * TAIL_SHARE);
  const marker = omissionMarker(text.length - head - tail);
  // Too small a budget for the marker: a plain cut is the best that fits.
  if (head + tail + marker.length > max) return { text: text.slice(0, max), truncated: true };
  return { text: text.slice(0, head) + marker + text.slice(text.length - tail), truncated: true };
}

/** A line of its own between head and tail, e.g. `[… 12,345 characters omitted …]`. */
export function omissionMarker(omitted: number): string {
  return `\n[… ${omitted.toLocaleString('en-US')} characters omitted …]\n`;
}
