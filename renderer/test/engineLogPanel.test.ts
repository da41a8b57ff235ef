import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { RecentLogs } from '../../core/src/contract/index.js';
import { MemoryClientError } from '../src/client/clientError.js';
import { createReverieStore, type ReverieStore } from '../src/store/store.js';
import { StoreContext } from '../src/store/useReverie.js';
import { bugReportText } from '../src/views/status/bugReport.js';
import { StatusView } from '../src/views/status/StatusView.js';
import { createFakeClient, deferred } from './fakeClient.js';
import { statusOutput } from './statusFixtures.js';

const render = (store: ReverieStore): string =>
  renderToStaticMarkup(createElement(StoreContext.Provider, { value: { ...store, getInitialState: store.getState } }, createElement(StatusView)));

function recentLogs(overrides: Partial<RecentLogs> = {}): RecentLogs {
  return {
    records: [
      {
        time: '2026-12-02T14:03:01.123Z',
        level: 'error',
        area: 'engine',
        message: 'Indexing failed',
        pid: 4242,
        fields: { workspace: '/home/ada/Reverie' },
        error: { name: 'SqliteError', code: 'SQLITE_FULL', message: 'database or disk is full', stack: 'SqliteError: database or disk is full\n    at syncIndex (sync.ts:10:3)\n    at runSync (memoryService.ts:20:5)' },
      },
      { time: '2026-12-02T14:01:00.000Z', level: 'warn', area: 'importers', message: 'An import report could not be read; left out of the list', fields: { file: 'broken.json' } },
    ],
    logDir: '/home/ada/.config/Reverie/logs',
    problem: null,
    app: { version: '0.1.0', platform: 'linux x64', node: '20.19.4' },
    ...overrides,
  };
}

describe('engine log in the status slice', () => {
  it('loads logs.recent, keeps the last answer when a reload fails, and says why', async () => {
    let refuse = false;
    const client = createFakeClient({
      'logs.recent': async () => {
        if (refuse) throw new MemoryClientError('network', 'The engine is not answering.');
        return recentLogs();
      },
    });
    const store = createReverieStore(client, { confirm: () => true });
    await store.getState().status.loadEngineLog();
    expect(store.getState().status.engineLog?.records).toHaveLength(2);
    expect(store.getState().status.engineLogError).toBeNull();

    refuse = true;
    await store.getState().status.loadEngineLog();
    expect(store.getState().status.engineLog?.records).toHaveLength(2);
    expect(store.getState().status.engineLogError).toBe('The engine is not answering.');
  });

  it('an older answer arriving after a newer one does not replace it', async () => {
    const answers = [deferred<RecentLogs>(), deferred<RecentLogs>()];
    let call = 0;
    const client = createFakeClient({ 'logs.recent': () => answers[call++]!.promise });
    const store = createReverieStore(client, { confirm: () => true });
    const first = store.getState().status.loadEngineLog();
    const second = store.getState().status.loadEngineLog();
    answers[1]!.resolve(recentLogs({ records: [] }));
    await second;
    answers[0]!.resolve(recentLogs());
    await first;
    expect(store.getState().status.engineLog?.records).toEqual([]);
  });
});

describe('engine log panel', () => {
  it('shows recent warnings and errors, the log folder and the bug-report button', async () => {
    const client = createFakeClient({ status: async () => statusOutput(), 'logs.recent': async () => recentLogs() });
    const store = createReverieStore(client, { confirm: () => true });
    await store.getState().status.refresh();
    await store.getState().status.loadEngineLog();
    const html = render(store);
    expect(html).toContain('data-testid="engine-log"');
    expect(html.match(/class="engine-log-record"/g)).toHaveLength(2);
    expect(html).toContain('data-level="error"');
    expect(html).toContain('Indexing failed');
    expect(html).toContain('SqliteError: database or disk is full');
    expect(html).toContain('/home/ada/.config/Reverie/logs');
    expect(html).toContain('Copy for a bug report');
    expect(html).not.toContain('data-testid="engine-log-problem"');
  });

  it('says when the engine cannot write its log, and when there is nothing to report', async () => {
    const problem = 'Reverie cannot write its log to /data/logs: the disk is full (ENOSPC). Everything else keeps working.';
    const client = createFakeClient({ status: async () => statusOutput(), 'logs.recent': async () => recentLogs({ records: [], problem }) });
    const store = createReverieStore(client, { confirm: () => true });
    await store.getState().status.refresh();
    await store.getState().status.loadEngineLog();
    const html = render(store);
    expect(html).toContain('data-testid="engine-log-problem"');
    expect(html).toContain('the disk is full (ENOSPC)');
    expect(html).toContain('No recent warnings or errors.');
  });

  it('the bug report is plain text: version, platform, index, logging state and the records with their errors', () => {
    const text = bugReportText(recentLogs(), statusOutput({ failed: 1, lastError: 'database or disk is full' }), new Date('2026-12-02T15:00:00.000Z'));
    expect(text).toBe(
      [
        'Reverie bug report',
        'Version: 0.1.0 · Platform: linux x64 · Node 20.19.4',
        'Generated: 2026-12-02T15:00:00.000Z',
        'Index: ready · 3 files (3 indexed, 0 skipped, 1 failed) · 12 chunks',
        'Embedding: hash hash:fh-words-trigrams · 12/12 · vectors sqlite-vec',
        'Last indexing error: database or disk is full',
        'Log folder: /home/ada/.config/Reverie/logs',
        'Logging: working',
        '',
        'Recent warnings and errors (2, newest first):',
        '2026-12-02T14:03:01.123Z ERROR [engine] Indexing failed (workspace=/home/ada/Reverie)',
        '    SqliteError [SQLITE_FULL]: database or disk is full',
        '      at syncIndex (sync.ts:10:3)',
        '      at runSync (memoryService.ts:20:5)',
        '2026-12-02T14:01:00.000Z WARN [importers] An import report could not be read; left out of the list (file=broken.json)',
        '',
      ].join('\n'),
    );
    expect(bugReportText(recentLogs({ records: [], problem: 'cannot write' }), null)).toContain('Logging: not working: cannot write\n\nNo recent warnings or errors.\n');
  });
});
