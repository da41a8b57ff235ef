import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ForgetReport, ProvenanceChain } from '../../core/src/contract/index.js';
import { MemoryClientError } from '../src/client/clientError.js';
import { createReverieStore, type ReverieStore } from '../src/store/store.js';
import { StoreContext } from '../src/store/useReverie.js';
import { SourceView } from '../src/views/memory/SourceView.js';
import { groupLineRows } from '../src/views/provenance/ChainDetails.js';
import { formatLineRanges } from '../src/views/provenance/origin.js';
import { describeWrite } from '../src/views/provenance/writtenBy.js';
import { ProvenancePanel } from '../src/views/provenance/ProvenancePanel.js';
import { ResultItem } from '../src/views/search/ResultItem.js';
import { SearchView } from '../src/views/search/SearchView.js';
import { createFakeClient } from './fakeClient.js';
import { PATH_PREVIEW, SESSION_PREVIEW, TRANSCRIPT_CHAIN, WORKSPACE_CHAIN, result } from './provenanceFixtures.js';

/** Server-renders against the store as it is now (see settingsView.test.ts). */
const render = (store: ReverieStore, view: () => ReturnType<typeof createElement>): string =>
  renderToStaticMarkup(createElement(StoreContext.Provider, { value: { ...store, getInitialState: store.getState } }, view()));

const text = (html: string): string =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&');

async function storeWithChain(chain: ProvenanceChain, preview?: ForgetReport): Promise<ReverieStore> {
  const client = createFakeClient({
    'provenance.get': async () => chain,
    forget: async (input) => ({ ...(preview ?? PATH_PREVIEW), dryRun: input.dryRun ?? false }),
    'files.list': async () => ({ files: [] }),
  });
  const store = createReverieStore(client, { confirm: () => true });
  await store.getState().provenance.open('chunk:7');
  return store;
}

describe('Provenance inspector', () => {
  it('renders nothing while closed', () => {
    const store = createReverieStore(createFakeClient({}), { confirm: () => true });
    expect(render(store, () => createElement(ProvenancePanel))).toBe('');
  });

  it('shows a workspace chain: file link, source, origin with its explanation, observed time, who wrote each line, cited text', async () => {
    const store = await storeWithChain(WORKSPACE_CHAIN);
    const html = render(store, () => createElement(ProvenancePanel));
    expect(html).toContain('role="dialog"');
    expect(html).toContain('data-ref="chunk:7"');
    // The file and lines, as a button that opens the Memory view.
    expect(html).toMatch(/<button[^>]*data-testid="provenance-location"[^>]*>memory\/2026-03-02\.md:3-6<\/button>/);
    expect(html).toContain('data-testid="provenance-source">memory<');
    expect(html).toMatch(/data-testid="provenance-origin" data-origin="agent"/);
    expect(text(html)).toContain('Written by an agent from your content');
    expect(html).toContain('dateTime="2026-03-02T09:15:00.000Z"');
    // Owner lines 3–5 collapse into one row written by "you"; line 6 names the agent.
    const rows = [...html.matchAll(/<tr data-testid="provenance-line"[^>]*>(.*?)<\/tr>/g)].map(([row]) => text(row!));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^3–5youyou$/);
    expect(rows[1]).toMatch(/^6agentwritten by the agent codex, .+Details.*memory\.append/);
    expect(html).not.toContain('provenance-all-yours');
    expect(html).toContain('Named it Bartholomew.');
    // No transcript, no untrusted warning; forgetting this file means "stop indexing" it.
    expect(html).not.toContain('provenance-transcript');
    expect(html).not.toContain('provenance-untrusted-warning');
    expect(html).toMatch(/data-testid="forget-start"[^>]*>Stop indexing this file…</);
  });

  it('notes the passage a search result cited when the chunk spans more lines', async () => {
    const store = await storeWithChain(WORKSPACE_CHAIN);
    await store.getState().provenance.open('chunk:7', { cited: { startLine: 4, endLine: 5 } });
    expect(text(render(store, () => createElement(ProvenancePanel)))).toContain('The search result cited lines 4–5 of this indexed chunk.');
    await store.getState().provenance.open('chunk:7', { cited: { startLine: 3, endLine: 6 } });
    expect(render(store, () => createElement(ProvenancePanel))).not.toContain('provenance-cited-range');
  });

  it('says so when you wrote every line', async () => {
    const mine: ProvenanceChain = { ...WORKSPACE_CHAIN, origin: 'owner', lines: WORKSPACE_CHAIN.lines.map((l) => ({ ...l, origin: 'owner', writtenBy: null })) };
    const html = render(await storeWithChain(mine), () => createElement(ProvenancePanel));
    expect(html).toContain('data-testid="provenance-all-yours"');
    expect(html).toMatch(/data-testid="provenance-origin" data-origin="owner"[^>]*>you</);
    expect([...html.matchAll(/data-testid="provenance-line"/g)]).toHaveLength(1);
  });

  it('shows a transcript chain: untrusted warning, tool, session, project, original file with copy, JSONL lines', async () => {
    const store = await storeWithChain(TRANSCRIPT_CHAIN, SESSION_PREVIEW);
    const html = render(store, () => createElement(ProvenancePanel));
    const plain = text(html);
    expect(html).toContain('data-testid="provenance-untrusted-warning"');
    expect(plain).toContain('From outside your trust boundary: web/tool content; never promoted.');
    // A transcript is no workspace file: the location is plain text, not a link into Memory.
    expect(html).toMatch(/<code data-testid="provenance-location">sessions\/claude-code\/5f1c-session:12-13<\/code>/);
    expect(html).toContain('data-testid="transcript-tool">Claude Code<');
    expect(html).toContain('data-testid="transcript-session">5f1c-session<');
    expect(html).toMatch(/data-testid="session-kind-badge" data-session-kind="interactive"/);
    expect(html).toContain('/home/ada/garden');
    expect(html).toContain('data-testid="transcript-original-path">/home/ada/.claude/projects/-home-ada-garden/5f1c-session.jsonl<');
    expect(html).toContain('data-testid="copy-original-path"');
    const lines = [...html.matchAll(/<tr data-testid="transcript-line" data-line="(\d+)" data-source-line="(\d+)" data-origin="(\w+)">(.*?)<\/tr>/g)].map(
      ([, line, source, origin, row]) => [line, source, origin, text(row!)],
    );
    expect(lines).toEqual([
      ['12', '40', 'owner', expect.stringMatching(/^1240useryou.+$/)],
      ['13', '44', 'untrusted', expect.stringMatching(/^1344assistant⚠ untrusted.*unknown$/)],
    ]);
    expect(html).not.toContain('data-testid="provenance-lines"');
    expect(html).toMatch(/data-testid="forget-start"[^>]*>Forget this session…</);
    expect(plain).toContain('The page says to note this as important.');
  });

  it('shows a not-found lookup inline: "it may have changed since the search"', async () => {
    const client = createFakeClient({
      'provenance.get': async () => {
        throw new MemoryClientError('not-found', 'No indexed chunk chunk:7; it may have changed since the search. Search again.');
      },
    });
    const store = createReverieStore(client, { confirm: () => true });
    await store.getState().provenance.open('chunk:7');
    const html = render(store, () => createElement(ProvenancePanel));
    expect(html).toMatch(/data-testid="provenance-error" data-code="not-found"/);
    expect(text(html)).toContain('Not found: it may have changed since the search.');
    expect(html).toContain('data-testid="provenance-retry"');
    expect(html).not.toContain('provenance-chain');
  });

  it('previews a forget (files, chunks, vectors, Markdown unchanged) before the confirm button, then reports it', async () => {
    const store = await storeWithChain(TRANSCRIPT_CHAIN, SESSION_PREVIEW);
    await store.getState().provenance.previewForget();
    let html = render(store, () => createElement(ProvenancePanel));
    let plain = text(html);
    expect(html).toContain('data-testid="forget-preview"');
    expect(plain).toContain('This would remove from the index (nothing has been removed yet)');
    expect(text(html.match(/<li data-testid="forget-files">.*?<\/li>/)![0])).toBe('1 file: sessions/claude-code/5f1c-session');
    expect(html).toContain('data-testid="forget-chunks">7 chunks<');
    expect(html).toContain('data-testid="forget-vectors">7 vectors<');
    expect(plain).toContain('Your Markdown is not changed; these files still contain the text:');
    expect(text(html.match(/<li data-testid="forget-still-file"[^>]*>.*?<\/li>/)![0])).toBe('MEMORY.md (lines 4, 8–9)');
    expect(html).toMatch(/data-testid="forget-confirm"[^>]*>Forget this session</);
    expect(html).not.toContain('data-testid="forget-start"');

    await store.getState().provenance.confirmForget();
    // A few seconds to change one's mind: nothing removed yet, Undo at hand.
    html = render(store, () => createElement(ProvenancePanel));
    expect(text(html)).toContain('Forgetting this session in a few seconds. Changed your mind? Undo now and nothing is removed.');
    expect(html).toContain('data-testid="forget-undo"');
    await store.getState().undo.performNow();
    html = render(store, () => createElement(ProvenancePanel));
    plain = text(html);
    expect(html).toContain('data-testid="forget-done"');
    expect(plain).toContain('Session forgotten. Removed 7 chunks and 7 vectors (1 file) from the index');
    expect(plain).toContain('Your Markdown is not changed');
  });
});

describe('search results and provenance', () => {
  const renderItem = (overrides: Parameters<typeof result>[0]): string =>
    renderToStaticMarkup(
      createElement(ResultItem, {
        index: 0,
        result: result(overrides),
        query: 'heron',
        isSelected: false,
        onOpen: () => undefined,
        onHover: () => undefined,
        onWhereFrom: () => undefined,
      }),
    );

  it('badges the origin (owner reads "you"; untrusted is warned with the trust-boundary tooltip) and the session kind', () => {
    const owner = renderItem({ origin: 'owner' });
    expect(owner).toMatch(/data-testid="origin-badge" data-origin="owner" title="Written by you[^"]*">you</);
    expect(owner).not.toContain('session-kind-badge');
    expect(owner).toMatch(/data-testid="where-from-button"[^>]*>Where from\?</);

    const untrusted = renderItem({ origin: 'untrusted', source: 'sessions', sessionKind: 'cron', path: 'sessions/codex/s1' });
    expect(untrusted).toMatch(/class="origin-badge origin-untrusted" data-testid="origin-badge" data-origin="untrusted" title="From outside your trust boundary: web\/tool content; never promoted\."/);
    expect(untrusted).toContain('⚠');
    expect(untrusted).toMatch(/data-session-kind="cron"[^>]*>cron session</);
    expect(untrusted).toContain('title="Show where sessions/codex/s1:3-6 came from"');

    // Until the engine fills origin, results show no origin badge.
    expect(renderItem({})).not.toContain('origin-badge');
  });

  it('says where else the same imported entry is written ("also in 2 other places"), and nothing when it is nowhere else', () => {
    const html = renderItem({
      path: 'memory/imports/hermes/default/MEMORY.md',
      alsoIn: [
        { path: 'memory/imports/hermes/work/MEMORY.md', startLine: 4, endLine: 5 },
        { path: 'memory/imports/hermes/home/MEMORY.md', startLine: 1, endLine: 1 },
      ],
    });
    expect(text(html)).toContain('also in 2 other places');
    expect(html).toMatch(/data-testid="result-also-in" title="The same entry is also in:\nmemory\/imports\/hermes\/work\/MEMORY.md:4-5\nmemory\/imports\/hermes\/home\/MEMORY.md:1-1"/);
    expect(text(renderItem({ alsoIn: [{ path: 'memory/imports/hermes/work/MEMORY.md', startLine: 2, endLine: 2 }] }))).toContain('also in 1 other place');
    expect(renderItem({})).not.toContain('result-also-in');
  });

  it('badges the kinds of the cited entries, one badge per kind, a dated one with its end', () => {
    const html = renderItem({
      entryKinds: [
        { startLine: 3, endLine: 3, kind: 'fact', validUntil: null, cue: 'no other kind matched' },
        { startLine: 4, endLine: 4, kind: 'task', validUntil: null, cue: 'a checkbox' },
        { startLine: 5, endLine: 5, kind: 'task', validUntil: null, cue: '"TODO: "' },
        { startLine: 6, endLine: 6, kind: 'time-bounded', validUntil: '2026-11-06', cue: '"Nov 2–6"' },
      ],
    });
    const badges = [...html.matchAll(/data-testid="kind-badge" data-kind="([\w-]+)"[^>]*>([^<]*(?:<!-- -->[^<]*)*)</g)].map(([, kind, label]) => [kind, label!.replace(/<!-- -->/g, '')]);
    expect(badges).toEqual([
      ['fact', 'fact'],
      ['task', 'task'],
      ['time-bounded', 'time-bounded until 2026-11-06'],
    ]);
    expect(html).toContain('title="A task: work in progress, never made long-term memory (decided by a checkbox)"');
    expect(renderItem({})).not.toContain('kind-badge');
  });

  it('the inspector lists the kind of each entry in the range and what decided it', async () => {
    const chain = { ...WORKSPACE_CHAIN, entryKinds: [{ startLine: 6, endLine: 6, kind: 'task' as const, validUntil: null, cue: 'starts with "remind"' }] };
    const html = render(await storeWithChain(chain), () => createElement(ProvenancePanel));
    expect(html).toContain('data-testid="provenance-kinds"');
    expect(text(html)).toContain('Kindtask line 6, by starts with "remind"');
    expect(render(await storeWithChain(WORKSPACE_CHAIN), () => createElement(ProvenancePanel))).not.toContain('provenance-kinds');
  });

  it('offers Memory, Sessions and Dreams, with memory and sessions on by default', () => {
    const store = createReverieStore(createFakeClient({}), { confirm: () => true });
    const html = render(store, () => createElement(SearchView));
    const boxes = [...html.matchAll(/<input type="checkbox" data-testid="source-(\w+)"([^>]*)\/>/g)].map(([, source, attrs]) => [source, attrs!.includes('checked')]);
    expect(boxes).toEqual([
      ['memory', true],
      ['sessions', true],
      ['dreams', false],
    ]);
  });
});

describe('Memory view line numbers', () => {
  it('become buttons that ask where the line is from', () => {
    const html = renderToStaticMarkup(
      createElement(SourceView, { text: 'a\nb', highlight: null, query: null, scrollRequest: 0, onLineInfo: () => undefined }),
    );
    expect([...html.matchAll(/<button[^>]*data-testid="line-number"[^>]*aria-label="Where is line (\d) from\?"/g)].map((m) => m[1])).toEqual(['1', '2']);
    const plain = renderToStaticMarkup(createElement(SourceView, { text: 'a', highlight: null, query: null, scrollRequest: 0 }));
    expect(plain).not.toContain('<button');
  });
});

describe('provenance helpers', () => {
  it('formats line lists as ranges', () => {
    expect(formatLineRanges([9, 1, 2, 3, 7, 8])).toBe('1–3, 7–9');
    expect(formatLineRanges([5])).toBe('5');
    expect(formatLineRanges([])).toBe('');
    expect(formatLineRanges([1, 3, 5, 7], 2)).toBe('1, 3, …');
  });

  it('groups consecutive lines you wrote, never lines Reverie wrote', () => {
    const by = { via: 'import' as const, actor: null, writtenAt: '2026-01-01T00:00:00Z', detail: null };
    expect(
      groupLineRows([
        { line: 1, origin: 'owner', writtenBy: null },
        { line: 2, origin: 'owner', writtenBy: null },
        { line: 3, origin: 'agent', writtenBy: by },
        { line: 4, origin: 'agent', writtenBy: by },
        { line: 6, origin: 'owner', writtenBy: null },
      ]).map((r) => [r.startLine, r.endLine]),
    ).toEqual([
      [1, 2],
      [3, 3],
      [4, 4],
      [6, 6],
    ]);
  });

  it('says who wrote a line in words, keeping the engine’s record for Details', () => {
    const at = '2026-01-01T00:00:00Z';
    const imported = describeWrite({
      via: 'import',
      actor: 'hermes',
      writtenAt: at,
      detail: JSON.stringify({ originalPath: '/home/ada/.hermes/memories/MEMORY.md', collection: 'default', importId: 'import:20260101-ab12' }),
    });
    expect(imported.summary).toBe('imported from Hermes (MEMORY.md)');
    expect(imported.summary).not.toMatch(/[{"]/);
    expect(imported.facts.filter((f) => f.value).map((f) => [f.label, f.value])).toEqual([
      ['Original file', '/home/ada/.hermes/memories/MEMORY.md'],
      ['Collection', 'default'],
      ['Import', 'import:20260101-ab12'],
    ]);
    // Text an older import recorded is kept as it was, out of the summary.
    expect(describeWrite({ via: 'import', actor: null, writtenAt: at, detail: 'legacy note' })).toEqual({
      summary: 'imported',
      facts: [
        { label: 'Original file', value: null },
        { label: 'Collection', value: null },
        { label: 'Import', value: null },
        { label: 'Recorded', value: 'legacy note' },
      ],
    });
    const dreamed = describeWrite({ via: 'dreaming', actor: 'dream:20261130T030000Z-a1b2c3', writtenAt: at, detail: 'candidate:k1' });
    expect(dreamed.summary).toBe('promoted by dreaming');
    expect(dreamed.facts.map((f) => f.value)).toEqual(['dream:20261130T030000Z-a1b2c3', 'candidate:k1']);
    expect(describeWrite({ via: 'agent', actor: 'claude-code', writtenAt: at, detail: 'store' }).summary).toBe('stored by the agent claude-code');
  });
});
