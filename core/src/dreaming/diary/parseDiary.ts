import type { DiaryEntry, DreamDiary } from '../../contract/index.js';
import type { DiaryScan } from './diaryScan.js';
import { parseBackfillEntries } from './parseBackfillEntries.js';
import { parseDeepSleep } from './parseDeepSleep.js';
import { parseMarkedDiaryBlocks, parseUnmarkedEntries } from './parseDiaryBlocks.js';
import { parseHistory } from './parseHistory.js';
import { lineTexts } from './textLines.js';

/**
 * Reads DREAMS.md leniently and never throws: broken markers, stray separators and CRLF are
 * tolerated and described in `problems`. `exists` is true for non-empty text; the caller that
 * read the file knows better and may override it.
 */
export function parseDreamDiary(text: string, path = 'DREAMS.md'): DreamDiary {
  const lines = lineTexts(text);
  const scan: DiaryScan = { lines, claimed: lines.map(() => false), problems: [] };
  // Order matters: marked blocks claim their lines first, so later passes only see the rest.
  const narrative = parseMarkedDiaryBlocks(scan);
  const backfill = parseBackfillEntries(scan);
  const deepSleep = parseDeepSleep(scan);
  const history = parseHistory(scan);
  const unmarked = parseUnmarkedEntries(scan);
  const entries: DiaryEntry[] = [...narrative, ...backfill, ...unmarked].sort((a, b) => a.startLine - b.startLine);
  return { path, exists: text.length > 0, entries, deepSleep, history, problems: scan.problems };
}
