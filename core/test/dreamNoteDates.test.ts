import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyDirective } from '../src/dreaming/curated/userFile.js';
import { DAY_MS, dream, dreamingWorkspaceEachTest, recallOver } from './helpers/dreaming.js';

/**
 * Supersession follows the day each note was written, and only that day: never the day a line
 * was approved, the day a sweep read it, or the mtime an undated notes file had when Reverie
 * first read it. And a time-bounded fact said twice is one line.
 */

const OPEN_GATES = { minScore: 0, minRecallCount: 1, minUniqueQueries: 1 };
const AT = new Date(2026, 10, 29, 3, 0, 0).getTime();
const { setup, file, read } = dreamingWorkspaceEachTest(AT);

describe('USER.md: a directive of a later day never gives way to an older one', () => {
  const newer = '- Reply to the support inbox in Spanish first. <!-- observed: 2027-02-10 --> <!-- status: active -->';
  const user = `# User\n\n${newer}\n`;

  it('an older directive of the same lineage is added beside it, and the newer one stays active', () => {
    const edit = applyDirective(user, { text: 'Reply to the support inbox in English first.', observed: '2027-01-20' });
    expect(edit.superseded).toEqual([]);
    expect(edit.changed).toEqual([]);
    expect(edit.text.split('\n')).toContain(newer);
  });

  it('a directive of an unknown day carries no observed day and retires nothing dated', () => {
    const edit = applyDirective(user, { text: 'Reply to the support inbox in German first.', observed: null });
    expect(edit.superseded).toEqual([]);
    expect(edit.added).toEqual(['- Reply to the support inbox in German first. <!-- status: active -->']);
    expect(edit.text.split('\n')).toContain(newer);
  });

  it('a newer directive still supersedes the older one in place', () => {
    const edit = applyDirective(user, { text: 'Reply to the support inbox in Catalan first.', observed: '2027-03-01' });
    expect(edit.superseded).toEqual(['Reply to the support inbox in Spanish first.']);
  });
});

describe('approving a proposal days later', () => {
  it("keeps the day its note was written as the directive's observed day, not the day it was approved", async () => {
    const { service, clock } = await setup({ 'memory/2026-11-24.md': '# 2026-11-24\n\n- Always write commit messages in the imperative mood.\n' });
    await service.invoke('settings.set', { patch: { dreaming: { reviewBeforeWriting: true } } });
    await recallOver(service, clock, [
      { query: 'commit messages imperative mood', daysAgo: 2 },
      { query: 'how should commit messages be written', daysAgo: 1 },
    ]);
    const run = await dream(service, { thresholds: OPEN_GATES });
    const key = 'memory/2026-11-24.md:3:3';
    expect(run.promoted.find((p) => p.candidateKey === key)).toMatchObject({ decision: 'proposed', target: 'USER.md' });
    clock.set(AT + 5 * DAY_MS);
    await service.invoke('dream.review', { runId: run.id, candidateKey: key, decision: 'approve' });
    expect(read('USER.md')).toContain('- Always write commit messages in the imperative mood. <!-- observed: 2026-11-24 --> <!-- status: active -->');
  });
});

describe('a notes file without a date in its name', () => {
  const dated = '- The build cache lives on cache-3.lan port 9000. Source: memory/2026-11-25.md#L3-L3';

  it('an entry already there when the file was first read has no day, so it cannot retire a dated entry: the dispute is queued', async () => {
    const { service, clock } = await setup({
      'MEMORY.md': `# Long-Term Memory\n\n## Build\n${dated}\n`,
      'memory/2026-11-25.md': '# 2026-11-25\n\n- The build cache lives on cache-3.lan port 9000.\n',
      'memory/build-notes.md': '# Build notes\n\n- The build cache now lives on cache-2.lan port 9000.\n',
    });
    // Touched yesterday (another line edited): its mtime says nothing about when this line was written.
    const touched = new Date(AT - DAY_MS);
    fs.utimesSync(file('memory/build-notes.md'), touched, touched);
    await service.sync(false);
    await recallOver(service, clock, [
      { query: 'build cache host', daysAgo: 1 },
      { query: 'where does the build cache live', daysAgo: 0 },
    ]);
    const run = await dream(service, { thresholds: OPEN_GATES });
    const memory = read('MEMORY.md');
    expect(memory).toContain(`${dated}\n`);
    expect(memory).not.toContain('status: superseded');
    expect(memory).not.toContain('cache-2.lan');
    expect((run.contradictions ?? []).map((c) => [c.a.text, c.b.text].join(' | '))).toEqual([expect.stringContaining('cache-2.lan')]);
  });

  it('an entry added to it after it was first read is dated by when it appeared: it supersedes an older dated entry, keeps that day on its line, and an older note never retires it', async () => {
    const { service, clock } = await setup({
      'MEMORY.md': `# Long-Term Memory\n\n## Build\n${dated}\n`,
      'memory/2026-11-25.md': '# 2026-11-25\n\n- The build cache lives on cache-3.lan port 9000.\n',
      'memory/build-notes.md': '# Build notes\n\n- Builds run on the runner pool ci-pool-a.\n',
    });
    const notes = file('memory/build-notes.md');
    const firstRead = new Date(AT - 3 * DAY_MS);
    fs.utimesSync(notes, firstRead, firstRead);
    await service.sync(false);
    await dream(service, { thresholds: OPEN_GATES });
    // Appended on Nov 30 (the file's mtime then): no change word, only its day orders it.
    clock.set(AT + DAY_MS);
    fs.appendFileSync(notes, '- The build cache lives on cache-2.lan port 9000.\n');
    const appended = new Date(AT + DAY_MS - 3_600_000);
    fs.utimesSync(notes, appended, appended);
    await service.sync(false);
    await recallOver(service, clock, [
      { query: 'build cache host', daysAgo: 0 },
      { query: 'where does the build cache live', daysAgo: 0 },
    ]);
    await dream(service, { thresholds: OPEN_GATES });
    const written = '- The build cache lives on cache-2.lan port 9000. Source: memory/build-notes.md#L4-L4 <!-- observed: 2026-11-30 -->';
    expect(read('MEMORY.md')).toContain(`${dated} <!-- status: superseded -->`);
    expect(read('MEMORY.md')).toContain(`${written}\n`);
    // A note dated Nov 28, written down only now, says the cache moved: it is older than the Nov 30 line.
    clock.set(AT + 2 * DAY_MS);
    fs.writeFileSync(file('memory/2026-11-28.md'), '# 2026-11-28\n\n- The build cache now lives on cache-4.lan port 9000.\n');
    await service.sync(false);
    await recallOver(service, clock, [
      { query: 'build cache host', daysAgo: 0 },
      { query: 'which host has the build cache', daysAgo: 0 },
    ]);
    const run = await dream(service, { thresholds: OPEN_GATES });
    expect(read('MEMORY.md')).toContain(`${written}\n`);
    expect(read('MEMORY.md')).not.toContain('cache-4.lan');
    expect(run.candidates.find((c) => c.key === 'memory/2026-11-28.md:3:3')?.gates.find((g) => g.gate === 'judgment')?.detail).toContain('superseded by the newer');
  });
});

describe('a time-bounded fact said twice', () => {
  it('is written once, on the night after too; a lasting fact about the same subject does not swallow it', async () => {
    const { service, clock } = await setup({
      'MEMORY.md': '# Long-Term Memory\n\n## Team\n- Rosa Quiroga leads the payments squad.\n',
      'memory/2026-11-26.md': '# 2026-11-26\n\n- Code freeze on the ledger repository until Dec 12.\n- Omar is acting lead of the payments squad until Dec 20.\n',
    });
    await recallOver(service, clock, [
      { query: 'ledger repository code freeze', daysAgo: 1 },
      { query: 'who leads the payments squad', daysAgo: 1 },
      { query: 'payments squad acting lead', daysAgo: 0 },
    ]);
    await dream(service, { thresholds: OPEN_GATES });
    expect(read('MEMORY.md')).toContain('Omar is acting lead of the payments squad until Dec 20.');
    clock.set(AT + DAY_MS);
    fs.writeFileSync(file('memory/2026-11-29.md'), '# 2026-11-29\n\n- Reminder: the ledger repository stays in code freeze until Dec 12.\n');
    await service.sync(false);
    await recallOver(service, clock, [
      { query: 'is there a code freeze on ledger', daysAgo: 0 },
      { query: 'ledger repository freeze', daysAgo: 0 },
    ]);
    const run = await dream(service, { thresholds: OPEN_GATES });
    expect(run.candidates.find((c) => c.key === 'memory/2026-11-29.md:3:3')).toMatchObject({ kind: 'time-bounded', outcome: 'duplicate' });
    expect(read('MEMORY.md').match(/code freeze/gi)).toHaveLength(1);
  });
});
