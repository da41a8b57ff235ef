import { describe, expect, it } from 'vitest';
import type { ImportPlan, ImportReport, OperationInput, OperationOutput, ProvenanceChain } from '../../core/src/contract/index.js';
import { MemoryClientError } from '../src/client/clientError.js';
import { groupPlanItems, planCounts } from '../src/store/importsSlice.js';
import { createReverieStore } from '../src/store/store.js';
import { importProgressText } from '../src/views/imports/importText.js';
import { createFakeClient, deferred } from './fakeClient.js';

type ApplyInput = OperationInput<'import.apply'>;
type PlanItem = ImportPlan['items'][number];

const item = (over: Partial<PlanItem> & Pick<PlanItem, 'sourcePath'>): PlanItem => ({
  tool: 'codex',
  collection: 'global',
  size: 100,
  sha256: 'a'.repeat(64),
  destination: `memory/imports/codex/global/${over.sourcePath.split('/').pop()}`,
  status: 'new',
  reason: null,
  ...over,
});

const PLAN: ImportPlan = {
  version: 1,
  createdAt: '2026-11-03T10:00:00.000Z',
  workspaceRoot: '/w',
  sources: [{ tool: 'codex' }, { tool: 'claude-code' }],
  options: { maxFileBytes: 10 * 1024 * 1024, maxFilesPerCollection: 2000, includeClaudeMd: true },
  items: [
    item({ sourcePath: '/h/.codex/memories/a.md' }),
    item({ sourcePath: '/h/.codex/memories/b.md', status: 'conflict' }),
    item({ sourcePath: '/h/.codex/memories/c.md', status: 'unchanged' }),
    item({ sourcePath: '/h/.codex/memories/big.md', status: 'skipped', reason: 'larger than 10 MB', sha256: null }),
    item({
      tool: 'claude-code',
      collection: 'proj',
      sourcePath: '/h/.claude/projects/proj/memory/MEMORY.md',
      destination: 'memory/imports/claude-code/proj/MEMORY.md',
    }),
    item({
      tool: 'claude-code',
      collection: 'proj',
      sourcePath: '/h/.claude/projects/proj/memory/notes.md',
      destination: 'memory/imports/claude-code/proj/notes.md',
    }),
  ],
  notes: [],
  fingerprint: 'f'.repeat(64),
};

function reportFor(input: ApplyInput, over: Partial<ImportReport> = {}): ImportReport {
  const excluded = new Set(input.exclude ?? []);
  const items: ImportReport['items'] = PLAN.items.map((i) => ({
    tool: i.tool,
    collection: i.collection,
    sourcePath: i.sourcePath,
    destination: i.destination,
    sha256: i.sha256,
    action:
      i.destination && excluded.has(i.destination)
        ? 'skipped'
        : i.status === 'new'
          ? 'copied'
          : i.status === 'conflict'
            ? input.replace
              ? 'replaced'
              : 'skipped'
            : i.status === 'unchanged'
              ? 'unchanged'
              : 'skipped',
    reason: null,
    backupPath: null,
  }));
  const count = (action: string) => items.filter((i) => i.action === action).length;
  return {
    id: '20261103-100000',
    outcome: 'completed',
    error: null,
    workspaceRoot: '/w',
    planFingerprint: PLAN.fingerprint,
    copied: count('copied'),
    skipped: count('skipped'),
    replaced: count('replaced'),
    unchanged: count('unchanged'),
    items,
    backupDir: null,
    startedAt: '2026-11-03T10:00:01.000Z',
    finishedAt: '2026-11-03T10:00:02.000Z',
    reportPath: '/d/imports/20261103-100000.json',
    markdownPath: null,
    ...over,
  };
}

type Apply = (input: ApplyInput) => Promise<OperationOutput<'import.apply'>>;

function importsEngine(apply: Apply = async (input) => reportFor(input)) {
  const applies: ApplyInput[] = [];
  const calls: string[] = [];
  const opened: string[] = [];
  const client = createFakeClient({
    'import.detect': async () => {
      calls.push('detect');
      return {
        sources: [
          {
            tool: 'codex',
            home: '/h/.codex',
            exists: true,
            collections: [{ name: 'global', projectPath: null, origin: 'codex:global', files: [{ absPath: '/h/.codex/memories/a.md', relPath: 'a.md', skipReason: null }] }],
            transcripts: 3,
            notes: [],
          },
          { tool: 'hermes', home: '/h/.hermes', exists: false, collections: [], transcripts: 0, notes: ['not installed'] },
        ],
      };
    },
    'import.plan': async () => {
      calls.push('plan');
      return structuredClone(PLAN);
    },
    'import.apply': async (input) => {
      applies.push(input);
      return apply(input);
    },
    'import.reports': async () => {
      calls.push('reports');
      return { reports: [] };
    },
    'files.list': async () => {
      calls.push('files.list');
      return { files: [] };
    },
    status: async () => {
      throw new MemoryClientError('internal', 'no status in this test');
    },
    'files.read': async ({ path }) => {
      opened.push(path);
      return { path, text: '# a\n', sha256: 'b'.repeat(64), mtimeMs: 0, size: 4 };
    },
    'provenance.get': async ({ ref }) => {
      opened.push(`provenance ${ref}`);
      return { path: ref.replace(/:1$/, ''), startLine: 1, endLine: 1 } as unknown as ProvenanceChain;
    },
  });
  const store = createReverieStore(client, { confirm: () => true });
  return { store, client, applies, calls, opened, imports: () => store.getState().imports };
}

describe('imports slice', () => {
  it('loads detected sources and earlier reports', async () => {
    const { store, imports, calls } = importsEngine();
    store.getState().app.setView('imports');
    await imports().load();
    expect(calls).toContain('detect');
    expect(calls).toContain('reports');
    expect(imports().sourcesState).toBe('ready');
    expect(imports().sources?.map((s) => [s.tool, s.exists])).toEqual([
      ['codex', true],
      ['hermes', false],
    ]);
    expect(imports().reportsState).toBe('ready');
  });

  it('plan → untick items → apply sends the plan, replace and the unticked destinations', async () => {
    const { imports, applies } = importsEngine();
    await imports().preview();
    expect(imports().planState).toBe('ready');
    expect(imports().applyInput()).toEqual({ plan: PLAN, replace: false, exclude: [] });

    // New and conflicting items toggle; unchanged and skipped ones do not.
    imports().toggleItem('memory/imports/codex/global/a.md');
    imports().toggleItem('memory/imports/codex/global/b.md');
    imports().toggleItem('memory/imports/codex/global/c.md');
    imports().toggleItem('memory/imports/codex/global/big.md');
    imports().toggleItem('memory/imports/nowhere.md');
    expect(imports().excluded).toEqual(['memory/imports/codex/global/a.md', 'memory/imports/codex/global/b.md']);
    expect(imports().isIncluded('memory/imports/codex/global/a.md')).toBe(false);

    // Toggling again ticks it back.
    imports().toggleItem('memory/imports/codex/global/b.md');
    expect(imports().excluded).toEqual(['memory/imports/codex/global/a.md']);

    // A whole group off, then on.
    imports().setGroupIncluded('claude-code/proj', false);
    expect(imports().applyInput()?.exclude).toEqual([
      'memory/imports/codex/global/a.md',
      'memory/imports/claude-code/proj/MEMORY.md',
      'memory/imports/claude-code/proj/notes.md',
    ]);
    imports().setGroupIncluded('claude-code/proj', true);
    imports().toggleItem('memory/imports/claude-code/proj/notes.md');
    imports().setReplace(true);

    await imports().apply();
    expect(applies).toEqual([
      {
        plan: PLAN,
        replace: true,
        exclude: ['memory/imports/codex/global/a.md', 'memory/imports/claude-code/proj/notes.md'],
      },
    ]);
    expect(imports().applyState).toBe('done');
    expect(imports().report).toMatchObject({ copied: 1, replaced: 1, unchanged: 1, skipped: 3 });
    // The plan is spent; a new preview starts with everything ticked.
    expect(imports().plan).toBeNull();
    await imports().preview();
    expect(imports().excluded).toEqual([]);
    expect(imports().report).toBeNull();
  });

  it('draws progress from import-progress events while applying, then shows the report and refreshes', async () => {
    const gate = deferred<ImportReport>();
    const { store, client, imports, calls } = importsEngine(() => gate.promise);
    const off = client.onEvent((event) => store.getState().app.handleEvent(event));

    // Events from someone else's import (no apply running here) are ignored.
    client.emit({ type: 'import-progress', phase: 'staging', done: 1, total: 5, path: null });
    expect(imports().progress).toBeNull();

    await imports().preview();
    const applying = imports().apply();
    expect(imports().applyState).toBe('applying');
    // Nothing can change under a running apply.
    imports().toggleItem('memory/imports/codex/global/a.md');
    imports().setReplace(true);
    expect(imports().excluded).toEqual([]);
    expect(imports().replace).toBe(false);

    client.emit({ type: 'import-progress', phase: 'checking', done: 0, total: 6, path: null });
    expect(imports().progress).toEqual({ phase: 'checking', done: 0, total: 6, path: null });
    client.emit({ type: 'import-progress', phase: 'staging', done: 2, total: 3, path: 'memory/imports/codex/global/a.md' });
    expect(imports().progress).toMatchObject({ phase: 'staging', done: 2, total: 3 });
    expect(importProgressText(imports().progress!)).toBe('Copying 2 of 3');

    calls.length = 0;
    gate.resolve(reportFor({ plan: PLAN, replace: false, exclude: [] }));
    await applying;
    expect(imports().applyState).toBe('done');
    expect(imports().progress).toBeNull();
    expect(imports().report?.copied).toBe(3);
    expect(calls).toEqual(expect.arrayContaining(['reports', 'detect', 'files.list']));
    off();
  });

  it('keeps the plan and shows the error when apply is refused (source changed since the plan)', async () => {
    const { imports } = importsEngine(async () => {
      throw new MemoryClientError('conflict', 'The import sources or destinations changed since this plan was made; make a new plan and review it.');
    });
    await imports().preview();
    imports().toggleItem('memory/imports/codex/global/a.md');
    await imports().apply();
    expect(imports().applyState).toBe('error');
    expect(imports().applyErrorCode).toBe('conflict');
    expect(imports().applyError).toContain('changed since this plan was made');
    expect(imports().progress).toBeNull();
    expect(imports().report).toBeNull();
    expect(imports().plan?.fingerprint).toBe(PLAN.fingerprint);
    expect(imports().excluded).toEqual(['memory/imports/codex/global/a.md']);
    // A new preview clears the error.
    await imports().preview();
    expect(imports().applyState).toBe('idle');
    expect(imports().applyError).toBeNull();
  });

  it('shows a failed outcome as a report with its error', async () => {
    const { imports } = importsEngine(async (input) =>
      reportFor(input, { outcome: 'failed', error: 'ENOSPC: no space left on device', copied: 0, items: [] }),
    );
    await imports().preview();
    await imports().apply();
    expect(imports().applyState).toBe('done');
    expect(imports().report).toMatchObject({ outcome: 'failed', error: 'ENOSPC: no space left on device' });
  });

  it('reports a plan that cannot be made', async () => {
    const client = createFakeClient({
      'import.plan': async () => {
        throw new MemoryClientError('too-large', 'more than 2000 files in collection proj');
      },
    });
    const store = createReverieStore(client, { confirm: () => true });
    await store.getState().imports.preview();
    expect(store.getState().imports.planState).toBe('error');
    expect(store.getState().imports.planError).toContain('more than 2000 files');
    expect(store.getState().imports.applyInput()).toBeNull();
    await store.getState().imports.apply(); // nothing to apply: no call (the fake has no handler)
    expect(store.getState().imports.applyState).toBe('idle');
  });

  it('opens an imported file in the Memory view and asks the inspector where it came from', async () => {
    const { store, imports, opened } = importsEngine();
    store.getState().app.setView('imports');
    await imports().openInMemory('memory/imports/codex/global/a.md');
    expect(store.getState().app.view).toBe('memory');
    expect(store.getState().memory.openPath).toBe('memory/imports/codex/global/a.md');
    await imports().whereFrom('memory/imports/codex/global/a.md');
    expect(store.getState().provenance.ref).toBe('memory/imports/codex/global/a.md:1');
    expect(opened).toContain('provenance memory/imports/codex/global/a.md:1');
  });

  it('groups plan items by tool and collection and counts them by status', () => {
    expect(groupPlanItems(PLAN.items).map((g) => [g.key, g.items.length])).toEqual([
      ['codex/global', 4],
      ['claude-code/proj', 2],
    ]);
    expect(planCounts(PLAN.items)).toEqual({ new: 3, conflict: 1, unchanged: 1, skipped: 1 });
  });
});
