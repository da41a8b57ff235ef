/** The diary writers: each returns a TextEdit and only adds to (never retypes) the person's text. */
export { appendDiaryEntry, type DiaryEntryToAppend } from './appendDiaryEntry.js';
export { appendBackfillEntry, type BackfillEntryToAppend, type BackfillLabel } from './appendBackfillEntry.js';
export { formatDiaryDate } from './formatDiaryDate.js';
export { prependHistoryItem } from './prependHistoryItem.js';
export { recordDeepSleep } from './recordDeepSleep.js';
