import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/platform/hash.js';
import { classifyBackfillEntry } from '../src/dreaming/diary/narrative.js';
import { parseDreamDiary } from '../src/dreaming/diary/parseDiary.js';
import { MAX_DIARY_READ_BYTES, readDreamDiaryFile } from '../src/dreaming/diary/readDiary.js';
import { appendBackfillEntry, appendDiaryEntry, formatDiaryDate, prependHistoryItem, recordDeepSleep } from '../src/dreaming/diary/writeDiary.js';

const START = '<!-- openclaw:dreaming:diary:start -->';
const END = '<!-- openclaw:dreaming:diary:end -->';

// Modelled on OpenClaw's DREAMS.md: two narrative entries, a backfill block, deep sleep, two history items.
const OPENCLAW_DIARY = `# Dream Diary

${START}
*April 5, 2026, 3:00 AM CEST*

I kept circling back to the move away from fly.io. Production lives on ledgerd-prod-2.

---

*April 6, 2026, 3:00 AM CEST*
<!-- reverie:dream-run dream:abc123 -->

The staging database moved to port 5433, so I replaced the old line.
${END}

<!-- openclaw:dreaming:backfill-entry day=2026-04-04 source=memory/2026-04-04.md -->
## Backfill: 2026-04-04

### What Happened
- Production deploy target moved to ledgerd-prod-2 [memory/2026-04-04.md:3]

### Reflections
- Infrastructure changes recur across days; worth keeping.

### Candidates
- [likely_durable] Production runs on ledgerd-prod-2 (Hetzner). [memory/2026-04-04.md:3]

### Possible Lasting Updates
- Add the production host name to MEMORY.md. [memory/2026-04-04.md:3]

## Deep Sleep
<!-- openclaw:dreaming:deep:start -->
- Ranked 4 candidate(s); 1 passed the gates.
- Promoted 1 candidate(s) into MEMORY.md.
<!-- openclaw:dreaming:deep:end -->

## Memory Consolidation History

### 2026-04-06T01:00:03.000Z
- Added: 0
- Merged: 0
- Superseded: 1
- Highlights:
  - + The staging database is ledgerd-staging on port 5433.
  - - The staging database is on port 5432.

### 2026-04-05T01:00:02.000Z
- Added: 1
- Merged: 0
- Superseded: 0
- Highlights:
  - + Moved the production deploy target to ledgerd-prod-2.
`;

const ENTRY = { dateLine: 'April 7, 2026, 3:00 AM CEST', runId: 'dream:def456', narrative: 'A quiet night: nothing new to look over.' };

let tempDir: string | null = null;
afterEach(() => {
  if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
  tempDir = null;
});
function makeTempDir(): string {
  tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-diary-'));
  return tempDir;
}

describe('parseDreamDiary', () => {
  it('reads an OpenClaw diary: narrative entries, a backfill block, deep sleep and history', () => {
    const diary = parseDreamDiary(OPENCLAW_DIARY);
    expect(diary.problems).toEqual([]);
    expect(diary.path).toBe('DREAMS.md');
    const [first, second, backfill] = diary.entries;
    expect(diary.entries).toHaveLength(3);
    expect(first).toMatchObject({ kind: 'narrative', dateLine: 'April 5, 2026, 3:00 AM CEST', date: '2026-04-05T03:00:00+02:00', runId: null, startLine: 4, endLine: 6 });
    expect(first!.body).toContain('ledgerd-prod-2');
    expect(second).toMatchObject({ kind: 'narrative', date: '2026-04-06T03:00:00+02:00', runId: 'dream:abc123', startLine: 10, endLine: 13 });
    expect(second!.body).toBe('The staging database moved to port 5433, so I replaced the old line.');
    expect(backfill).toMatchObject({ kind: 'backfill', dateLine: '2026-04-04', date: '2026-04-04', startLine: 16 });
    expect(backfill!.body).toContain('### Candidates');
    expect(backfill!.body).not.toContain('## Deep Sleep');
    expect(diary.deepSleep).toEqual(['Ranked 4 candidate(s); 1 passed the gates.', 'Promoted 1 candidate(s) into MEMORY.md.']);
    expect(diary.history.map((h) => h.at)).toEqual(['2026-04-06T01:00:03.000Z', '2026-04-05T01:00:02.000Z']);
    expect(diary.history[0]).toMatchObject({ added: 0, merged: 0, superseded: 1 });
    expect(diary.history[0]!.highlights).toEqual(['+ The staging database is ledgerd-staging on port 5433.', '- The staging database is on port 5432.']);
  });

  it('reads CRLF the same way', () => {
    const diary = parseDreamDiary(OPENCLAW_DIARY.replace(/\n/g, '\r\n'));
    expect(diary.problems).toEqual([]);
    expect(diary.entries.map((e) => [e.startLine, e.endLine, e.date])).toEqual(parseDreamDiary(OPENCLAW_DIARY).entries.map((e) => [e.startLine, e.endLine, e.date]));
    expect(diary.entries[1]!.body).not.toContain('\r');
  });

  it('reads broken markers leniently and notes each problem', () => {
    const missingEnd = `# Dream Diary\n\n${START}\n*April 5, 2026*\n\nFirst.\n\n---\n\n---\n\n*April 6, 2026*\nSecond.\n\n## Deep Sleep\n- Ranked 1 candidate(s).\n`;
    const diary = parseDreamDiary(missingEnd);
    expect(diary.entries.map((e) => [e.date, e.body])).toEqual([
      ['2026-04-05', 'First.'],
      ['2026-04-06', 'Second.'],
    ]);
    expect(diary.problems.some((p) => p.includes('no end marker'))).toBe(true);
    expect(diary.problems.some((p) => p.includes('stray'))).toBe(true);
    expect(diary.deepSleep).toEqual(['Ranked 1 candidate(s).']);

    const missingStart = `# Dream Diary\n\n*April 5, 2026, 3:00 AM CEST*\nFirst.\n*Sometime in 2026*\nSecond, no separator.\n${END}\n`;
    const lenient = parseDreamDiary(missingStart);
    expect(lenient.entries.map((e) => [e.dateLine, e.date])).toEqual([
      ['April 5, 2026, 3:00 AM CEST', '2026-04-05T03:00:00+02:00'],
      ['Sometime in 2026', null],
    ]);
    expect(lenient.problems.some((p) => p.includes('outside the diary'))).toBe(true);
    expect(() => parseDreamDiary('\u0000garbage *1* <!-- openclaw:dreaming:deep:start -->')).not.toThrow();
  });
});

describe('diary writers', () => {
  it('creates the layout in an empty file', () => {
    const edit = appendDiaryEntry('', ENTRY);
    expect(edit.text).toBe(`# Dream Diary\n\n${START}\n*April 7, 2026, 3:00 AM CEST*\n<!-- reverie:dream-run dream:def456 -->\n\nA quiet night: nothing new to look over.\n${END}\n`);
    expect(edit.added).toContain('*April 7, 2026, 3:00 AM CEST*');
    expect(edit.changed).toEqual([]);
    const entry = parseDreamDiary(edit.text).entries[0]!;
    expect(entry).toMatchObject({ runId: 'dream:def456', body: 'A quiet night: nothing new to look over.' });
  });

  it('inserts an entry before the end marker with a --- separator', () => {
    const edit = appendDiaryEntry(OPENCLAW_DIARY, ENTRY);
    expect(edit.text).toContain(`so I replaced the old line.\n\n---\n\n*April 7, 2026, 3:00 AM CEST*\n<!-- reverie:dream-run dream:def456 -->\n\nA quiet night: nothing new to look over.\n${END}`);
    // Removing the inserted span gives back the original, byte for byte.
    const inserted = edit.text.slice(edit.text.indexOf('\n---\n\n*April 7'), edit.text.indexOf(END));
    expect(edit.text.replace(inserted, '')).toBe(OPENCLAW_DIARY);
    expect(edit.added).toEqual(['---', '*April 7, 2026, 3:00 AM CEST*', '<!-- reverie:dream-run dream:def456 -->', 'A quiet night: nothing new to look over.']);
    const diary = parseDreamDiary(edit.text);
    expect(diary.problems).toEqual([]);
    expect(diary.entries.filter((e) => e.kind === 'narrative').map((e) => e.runId)).toEqual([null, 'dream:abc123', 'dream:def456']);
  });

  it('keeps a CRLF diary CRLF', () => {
    const crlf = OPENCLAW_DIARY.replace(/\n/g, '\r\n');
    const edit = appendDiaryEntry(crlf, ENTRY);
    expect(edit.text.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('keeps every byte of a diary with broken markers and adds a fresh block at the end', () => {
    const broken = [
      `# Dream Diary\n\n${END}\n*April 5, 2026*\nEnd before start.\n${START}\nno end here`,
      `# Dream Diary\n\n*April 5, 2026*\nNo markers at all, hand-written.\n`,
      `# Dream Diary\n\n${START}\n*April 5, 2026*\nStart but never ended.\n\n## Deep Sleep\n`,
    ];
    for (const original of broken) {
      const edit = appendDiaryEntry(original, ENTRY);
      expect(edit.text.startsWith(original)).toBe(true);
      expect(edit.text.endsWith(`${START}\n*April 7, 2026, 3:00 AM CEST*\n<!-- reverie:dream-run dream:def456 -->\n\nA quiet night: nothing new to look over.\n${END}\n`)).toBe(true);
      const diary = parseDreamDiary(edit.text);
      expect(diary.entries.map((e) => e.runId)).toContain('dream:def456');
      expect(diary.entries.length).toBeGreaterThanOrEqual(2);
      // The next run inserts into the fresh block instead of adding yet another one.
      const again = appendDiaryEntry(edit.text, { ...ENTRY, runId: 'dream:next' });
      expect(again.text.split(START).length).toBe(edit.text.split(START).length);
      expect(again.text.startsWith(original)).toBe(true);
    }
  });

  it('puts the newest history item first and creates the section when missing', () => {
    const item = { at: '2026-04-07T01:00:00.000Z', added: 2, merged: 1, superseded: 0, highlights: ['+ Marek owns the tax module.', 'Unsigned highlight.'] };
    const edit = prependHistoryItem(OPENCLAW_DIARY, item);
    const history = parseDreamDiary(edit.text).history;
    expect(history.map((h) => h.at)).toEqual(['2026-04-07T01:00:00.000Z', '2026-04-06T01:00:03.000Z', '2026-04-05T01:00:02.000Z']);
    expect(history[0]).toEqual({ ...item, highlights: ['+ Marek owns the tax module.', '+ Unsigned highlight.'] });
    expect(edit.text).toContain('  - + Unsigned highlight.\n\n### 2026-04-06T01:00:03.000Z');
    expect(edit.added[0]).toBe('### 2026-04-07T01:00:00.000Z');

    const fresh = prependHistoryItem('# Dream Diary\n', item);
    expect(fresh.text.startsWith('# Dream Diary\n\n## Memory Consolidation History\n\n### 2026-04-07T01:00:00.000Z\n- Added: 2\n')).toBe(true);
    const newer = prependHistoryItem(fresh.text, { ...item, at: '2026-04-08T01:00:00.000Z' });
    expect(parseDreamDiary(newer.text).history.map((h) => h.at)).toEqual(['2026-04-08T01:00:00.000Z', '2026-04-07T01:00:00.000Z']);
  });

  it('replaces the deep sleep block and reports line pairs; adds one when missing', () => {
    const edit = recordDeepSleep(OPENCLAW_DIARY, ['Ranked 9 candidate(s); 3 passed the gates.']);
    expect(parseDreamDiary(edit.text).deepSleep).toEqual(['Ranked 9 candidate(s); 3 passed the gates.']);
    expect(edit.added).toEqual([]);
    expect(edit.changed).toEqual([
      { before: '- Ranked 4 candidate(s); 1 passed the gates.\n- Promoted 1 candidate(s) into MEMORY.md.', after: '- Ranked 9 candidate(s); 3 passed the gates.' },
    ]);
    const longer = recordDeepSleep(OPENCLAW_DIARY, ['- Ranked 4 candidate(s); 1 passed the gates.', 'Promoted 2.', 'Proposed 1.']);
    expect(longer.changed).toEqual([{ before: '- Promoted 1 candidate(s) into MEMORY.md.', after: '- Promoted 2.' }]);
    expect(longer.added).toEqual(['- Proposed 1.']);

    const withoutDeep = '# Dream Diary\n\n## Memory Consolidation History\n';
    const added = recordDeepSleep(withoutDeep, ['Ranked 0 candidate(s).']);
    expect(added.text).toBe('# Dream Diary\n\n## Deep Sleep\n<!-- openclaw:dreaming:deep:start -->\n- Ranked 0 candidate(s).\n<!-- openclaw:dreaming:deep:end -->\n\n## Memory Consolidation History\n');
  });

  it("adds a backfill entry inside the diary markers in OpenClaw's format, once per day and source", () => {
    const entry = {
      day: '2026-04-03',
      source: 'memory/2026-04-03.md',
      whatHappened: ['Moved staging to port 5433 [memory/2026-04-03.md:2]'],
      reflections: ['Ports keep changing.'],
      candidates: [{ label: 'likely_durable' as const, text: 'Staging runs on port 5433.', ref: 'memory/2026-04-03.md:2' }],
      possibleUpdates: ['Update the staging port in MEMORY.md.'],
    };
    const edit = appendBackfillEntry(OPENCLAW_DIARY, entry);
    expect(edit.text).toContain(
      [
        'The staging database moved to port 5433, so I replaced the old line.',
        '',
        '---',
        '',
        '*April 3, 2026*',
        '',
        '<!-- openclaw:dreaming:backfill-entry day=2026-04-03 source=memory/2026-04-03.md -->',
        '',
        'What Happened',
        '1. Moved staging to port 5433 [memory/2026-04-03.md:2]',
        '',
        'Reflections',
        '1. Ports keep changing.',
        '',
        'Candidates',
        '- [likely_durable] Staging runs on port 5433. [memory/2026-04-03.md:2]',
        '',
        'Possible Lasting Updates',
        '- Update the staging port in MEMORY.md.',
        END,
      ].join('\n'),
    );
    const backfills = parseDreamDiary(edit.text).entries.filter((e) => e.kind === 'backfill');
    // The older block after the diary (written by an earlier version) is still read; the new one is inside.
    expect(backfills.map((e) => [e.date, e.dateLine])).toEqual([
      ['2026-04-03', 'April 3, 2026'],
      ['2026-04-04', '2026-04-04'],
    ]);
    expect(backfills[0]!.body.startsWith('What Happened\n1. Moved staging')).toBe(true);
    expect(appendBackfillEntry(edit.text, entry)).toEqual({ text: edit.text, added: [], changed: [] });
  });

  it('starts a diary for a backfill into an empty file, with the layout OpenClaw reads', () => {
    const edit = appendBackfillEntry('', { day: '2025-01-01', source: 'history/2025-01-01.md', whatHappened: ['Always book aisle seats.'], reflections: [], candidates: [], possibleUpdates: [] });
    expect(edit.text).toBe(
      '# Dream Diary\n\n<!-- openclaw:dreaming:diary:start -->\n*January 1, 2025*\n\n<!-- openclaw:dreaming:backfill-entry day=2025-01-01 source=history/2025-01-01.md -->\n\nWhat Happened\n1. Always book aisle seats.\n\nReflections\n1. No pattern across the backfilled days surfaced in this note.\n<!-- openclaw:dreaming:diary:end -->\n',
    );
    expect(parseDreamDiary(edit.text).entries).toMatchObject([{ kind: 'backfill', date: '2025-01-01', runId: null }]);
  });

  it('formats the date line in a given time zone', () => {
    expect(formatDiaryDate(new Date('2026-04-05T01:00:00Z'), 'Europe/Berlin')).toBe('April 5, 2026, 3:00 AM CEST');
    expect(formatDiaryDate(new Date('2026-01-15T23:30:00Z'), 'Europe/Berlin')).toBe('January 16, 2026, 12:30 AM CET');
  });
});

describe('readDreamDiaryFile', () => {
  it('reads a diary with its hash, and reports a missing one', () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'DREAMS.md');
    expect(readDreamDiaryFile(file)).toEqual({ exists: false, text: '', truncated: false, sha256: null });
    fs.writeFileSync(file, OPENCLAW_DIARY);
    expect(readDreamDiaryFile(file)).toEqual({ exists: true, text: OPENCLAW_DIARY, truncated: false, sha256: sha256Hex(OPENCLAW_DIARY) });
  });

  it('refuses a symlinked DREAMS.md', () => {
    const dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'elsewhere.md'), OPENCLAW_DIARY);
    fs.symlinkSync(path.join(dir, 'elsewhere.md'), path.join(dir, 'DREAMS.md'));
    expect(() => readDreamDiaryFile(path.join(dir, 'DREAMS.md'))).toThrow(expect.objectContaining({ code: 'forbidden', message: expect.stringContaining('symbolic link') }));
  });

  it('reads the first 16 MB of a 17 MB diary without splitting a character', () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'DREAMS.md');
    // A two-byte "é" straddles the 16 MB cut.
    const head = Buffer.alloc(MAX_DIARY_READ_BYTES - 1, 'a');
    fs.writeFileSync(file, Buffer.concat([head, Buffer.from('é', 'utf8'), Buffer.alloc(1024 * 1024, 'b')]));
    const read = readDreamDiaryFile(file);
    expect(read).toMatchObject({ exists: true, truncated: true, sha256: null });
    expect(Buffer.byteLength(read.text)).toBe(MAX_DIARY_READ_BYTES - 1);
    expect(read.text.endsWith('a')).toBe(true);
  });

  it('names the file and what to do when it is not UTF-8', () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'DREAMS.md');
    fs.writeFileSync(file, Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a]));
    expect(() => readDreamDiaryFile(file)).toThrow(expect.objectContaining({ code: 'invalid-input', message: expect.stringMatching(/DREAMS\.md.*not UTF-8.*re-save it as UTF-8/) }));
  });
});

describe('backfill classification', () => {
  it('classifies backfill lines by their kind first, then by what a fact says', () => {
    expect(classifyBackfillEntry('- Production deploy target moved to ledgerd-prod-2')).toBe('likely_durable');
    expect(classifyBackfillEntry('- Staging database on port 5433')).toBe('likely_durable');
    expect(classifyBackfillEntry('- Coffee machine on the 3rd floor is broken again')).toBe('likely_situational');
    expect(classifyBackfillEntry('- Invoice glyph problem still open')).toBe('likely_situational');
    expect(classifyBackfillEntry('- Tomorrow: call the bank', '2026-04-03')).toBe('likely_situational');
    expect(classifyBackfillEntry('- [ ] renew the TLS certificate on ares.internal')).toBe('likely_situational');
    expect(classifyBackfillEntry('- Lunch with Anna')).toBe('likely_situational');
    expect(classifyBackfillEntry('- Why does the nightly reconciliation job spike?')).toBe('unclear');
    expect(classifyBackfillEntry('- The coffee is cold')).toBe('unclear');
    for (const line of ['- Prefer Vitest over Jest', '- Prefer short answers.', '- Always answer in under ten lines.', '- Never deploy on Fridays.']) {
      expect(classifyBackfillEntry(line), line).toBe('likely_durable');
    }
    expect(classifyBackfillEntry('- The platform team is led by Dana.')).toBe('likely_durable');
  });
});
