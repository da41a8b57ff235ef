import type { Migration } from './types.js';

/**
 * Dates a note's lines speak of ("two weeks ago", "last Friday", "in March"), resolved against
 * the note's date when its file is indexed (search/lineDates.ts), so a question's month or day
 * finds the line as well as the dated note. Existing files get their rows at the next sync
 * (the index notices the version is missing from meta).
 */
export const migration0011: Migration = {
  version: 11,
  name: 'line-dates',
  up(db) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS line_dates (
        path      TEXT NOT NULL REFERENCES files(path) ON DELETE CASCADE,
        line      INTEGER NOT NULL CHECK (line >= 1),
        -- Inclusive UTC day range the line speaks of (YYYY-MM-DD).
        day_from  TEXT NOT NULL,
        day_to    TEXT NOT NULL CHECK (day_to >= day_from),
        precision TEXT NOT NULL,
        PRIMARY KEY (path, line, day_from, day_to)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS line_dates_by_day ON line_dates (day_from, day_to);
      DELETE FROM meta WHERE key = 'line_dates';
    `);
  },
};
