/** `<!-- importance: N -->` and `<!-- trigger: a, b -->` annotations inside Markdown entries (OpenClaw-compatible). */
const IMPORTANCE = /<!--\s*importance:\s*(\d+(?:\.\d+)?)\s*-->/gi;
const TRIGGER = /<!--\s*trigger:\s*([^>]*?)\s*-->/gi;

/** 0.75 + 0.05·N for the highest importance annotated in the text (N clamped to 0…10); 1 without one. */
export function importanceMultiplier(text: string): number {
  let best: number | null = null;
  for (const m of text.matchAll(IMPORTANCE)) best = Math.max(best ?? 0, Math.min(10, Number(m[1])));
  return best === null ? 1 : 0.75 + 0.05 * best;
}

export function triggerPhrases(text: string): string[] {
  const phrases: string[] = [];
  for (const m of text.matchAll(TRIGGER)) {
    for (const p of m[1]!.split(/[,;|]/)) {
      const phrase = p.trim().toLowerCase();
      if (phrase.length >= 2) phrases.push(phrase);
    }
  }
  return phrases;
}

const DATE_IN_PATH = /(?:^|\/)(\d{4})-(\d{2})-(\d{2})(?:[-_.][^/]*)?\.md$/i;

/** The date a note is about, from a `YYYY-MM-DD…md` file name; null for undated files. */
export function noteDate(path: string): Date | null {
  const m = DATE_IN_PATH.exec(path);
  if (!m) return null;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return Number.isNaN(date.getTime()) ? null : date;
}
