import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SearchResult } from '../../core/src/contract/index.js';
import { breakdownRows, matchBadges } from '../src/views/search/breakdown.js';
import { MatchBadges, ScoreBreakdown } from '../src/views/search/ScoreBreakdown.js';
import { formatEta, formatRate, formatScore } from '../src/views/format.js';

const result = (overrides: Partial<SearchResult> = {}): SearchResult => ({
  id: 'chunk:1',
  path: 'memory/2026-03-02.md',
  source: 'memory',
  startLine: 1,
  endLine: 4,
  snippet: 'heron',
  score: 0.8123,
  matchedBy: ['keyword', 'vector'],
  breakdown: { keyword: 1, vector: 0.6421, fused: 0.7495, fusion: 'weighted', decay: 0.85, importance: 1, trigger: 1.25, mmr: 0.0312 },
  ...overrides,
});

/** The text of each cell of the rendered breakdown table, row by row. */
function renderedRows(html: string): string[][] {
  return [...html.matchAll(/<tr[^>]*data-row="(\w+)"[^>]*>(.*?)<\/tr>/g)].map(([, key, cells]) => [
    key!,
    ...[...cells!.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map(([, text]) => text!.replace(/&lt;/g, '<').replace(/&gt;/g, '>')),
  ]);
}

describe('match badges', () => {
  it('says "both" when keyword and vector matched, then date and path', () => {
    expect(matchBadges(['vector', 'keyword', 'path', 'date']).map((b) => b.kind)).toEqual(['both', 'date', 'path']);
    expect(matchBadges(['keyword']).map((b) => b.kind)).toEqual(['keyword']);
    expect(matchBadges(['vector', 'date']).map((b) => b.kind)).toEqual(['vector', 'date']);
    expect(matchBadges(['path']).map((b) => b.kind)).toEqual(['path']);
    expect(matchBadges([])).toEqual([]);
  });

  it('renders one badge per kind with a title that explains it', () => {
    const html = renderToStaticMarkup(createElement(MatchBadges, { matchedBy: ['keyword', 'vector', 'date'] }));
    expect([...html.matchAll(/data-match="(\w+)"/g)].map((m) => m[1])).toEqual(['both', 'date']);
    expect(html).toContain('keyword + vector');
    expect(html).toContain('title="Matched both the words');
    expect(renderToStaticMarkup(createElement(MatchBadges, { matchedBy: [] }))).toBe('');
  });
});

describe('score breakdown', () => {
  it('lists every component in order, with the fusion mode and the final score', () => {
    const rows = breakdownRows(result());
    expect(rows?.map((r) => [r.key, r.label, r.value])).toEqual([
      ['keyword', 'Keyword', '1.000'],
      ['vector', 'Vector', '0.642'],
      ['fusion', 'Fused (weighted)', '0.750'],
      ['decay', 'Decay', '× 0.85'],
      ['importance', 'Importance', '× 1.00'],
      ['trigger', 'Trigger', '× 1.25'],
      ['mmr', 'MMR penalty', '− 0.0312'],
      ['score', 'Final score', '0.812'],
    ]);
    expect(rows?.filter((r) => r.isNeutral).map((r) => r.key)).toEqual(['importance']);
  });

  it('shows passage focus and the date bonus when the engine sends them', () => {
    const rows = breakdownRows(
      result({ score: 1.2, breakdown: { keyword: 1, vector: 0.3, fused: 0.5, fusion: 'weighted', decay: 1, importance: 1, trigger: 1, mmr: 0, passage: 0.8, date: 1 } }),
    )!;
    const byKey = Object.fromEntries(rows.map((r) => [r.key, r]));
    expect(rows.map((r) => r.key).slice(2, 5)).toEqual(['fusion', 'passage', 'date']);
    expect(byKey.passage?.value).toBe('0.800');
    expect(byKey.date?.value).toBe('+ 1.000');
    expect(byKey.date?.isNeutral).toBe(false);
  });

  it('names RRF and keeps its small fused values readable', () => {
    const rows = breakdownRows(
      result({ score: 0.0161, breakdown: { keyword: 0, vector: 0.41, fused: 0.016393, fusion: 'rrf', decay: 1, importance: 1, trigger: 1, mmr: 0 } }),
    )!;
    const byKey = Object.fromEntries(rows.map((r) => [r.key, r]));
    expect(byKey.fusion?.label).toBe('Fused (RRF)');
    expect(byKey.fusion?.value).toBe('0.0164');
    expect(byKey.fusion?.note).toContain('reciprocal-rank');
    expect(byKey.mmr?.value).toBe('0');
    expect(byKey.keyword?.isNeutral).toBe(true);
    expect(byKey.decay?.isNeutral).toBe(true);
    expect(byKey.score?.value).toBe('0.0161');
  });

  it('renders a compact table with one row per component', () => {
    const html = renderToStaticMarkup(createElement(ScoreBreakdown, { result: result(), id: 'why-1' }));
    expect(html).toMatch(/^<table id="why-1" class="data-table breakdown" data-testid="score-breakdown"/);
    const rows = renderedRows(html);
    expect(rows.map((r) => r[0])).toEqual(['keyword', 'vector', 'fusion', 'decay', 'importance', 'trigger', 'mmr', 'score']);
    expect(rows.find((r) => r[0] === 'fusion')).toEqual(['fusion', 'Fused (weighted)', '0.750', 'weighted sum of keyword and vector']);
    expect(rows.find((r) => r[0] === 'importance')?.[3]).toBe('no importance marker');
    expect(html).toContain('class="breakdown-row is-neutral"');
    expect(html).toContain('class="breakdown-row is-total"');
  });

  it('says so when the engine sent no breakdown', () => {
    const bare = result({ matchedBy: ['path'], breakdown: undefined, score: 0.5 });
    expect(breakdownRows(bare)).toBeNull();
    const html = renderToStaticMarkup(createElement(ScoreBreakdown, { result: bare, id: 'why-2' }));
    expect(html).toContain('No score breakdown for this result (matched by path)');
    expect(html).not.toContain('<table');
  });
});

describe('formatters', () => {
  it('formats scores, rates and ETAs for people', () => {
    expect(formatScore(0)).toBe('0');
    expect(formatScore(0.5)).toBe('0.500');
    expect(formatScore(0.00123456)).toBe('0.00123');
    expect(formatRate(4.2 * 1024 * 1024)).toBe('4.2 MB/s');
    expect(formatRate(25 * 1024 * 1024)).toBe('25 MB/s');
    expect(formatEta(42)).toBe('42 s');
    expect(formatEta(200)).toBe('3 min 20 s');
    expect(formatEta(180)).toBe('3 min');
    expect(formatEta(7170)).toBe('2 h');
    expect(formatEta(3900)).toBe('1 h 5 min');
  });
});
