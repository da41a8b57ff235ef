/**
 * The scale benchmark's parts that decide its figures: the growth fit, the size list, the
 * table a b-tree's bytes count towards, the CPU profile's phase attribution, and the
 * transcript generator (which the product's own ingest must read without a failure).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryService } from '../../core/src/engine/memoryService.js';
import { resolveExistingWorkspace } from '../../core/src/workspace/resolveWorkspace.js';
import { summarizeCpuProfile } from '../bench/cpuProfileSummary.js';
import { fitGrowth } from '../bench/growthFit.js';
import { measureIndexBytes, owningTable } from '../bench/indexBytes.js';
import { parseSizes } from '../bench/scale.js';
import { writeClaudeHome } from '../bench/scaleCorpus.js';
import { SyntheticCorpus } from '../bench/synthetic.js';

const temps: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-scale-test-'));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('fitGrowth', () => {
  it('recovers the exponent of an exact power law', () => {
    const fit = fitGrowth([500, 2000, 5000].map((n) => ({ n, value: 3 * n ** 1.5 })));
    expect(fit.exponent).toBeCloseTo(1.5, 9);
    expect(fit.r2).toBeCloseTo(1, 9);
  });

  it('fits the least-squares line through noisy points', () => {
    // log-log points (0,0), (1,1), (2,3): slope 1.5 by least squares, not the end-to-end 1.5 by chance alone.
    const e = Math.E;
    const fit = fitGrowth([{ n: 1, value: 1 }, { n: e, value: e }, { n: e * e, value: e ** 3 }]);
    expect(fit.exponent).toBeCloseTo(1.5, 9);
    expect(fit.r2).toBeCloseTo(0.964_285_714, 6);
  });

  it('gives no exponent for one size, one repeated size, or a zero figure', () => {
    expect(fitGrowth([{ n: 100, value: 5 }]).exponent).toBeNull();
    expect(fitGrowth([{ n: 100, value: 5 }, { n: 100, value: 6 }]).exponent).toBeNull();
    expect(fitGrowth([{ n: 100, value: 0 }, { n: 200, value: 6 }, { n: 400, value: 9 }]).exponent).toBeNull();
  });
});

describe('parseSizes', () => {
  it('sorts and de-duplicates, and names a bad size', () => {
    expect(parseSizes('2000, 500,2000')).toEqual([500, 2000]);
    expect(() => parseSizes('500,lots')).toThrow(/--sizes .*"500,lots"/);
    expect(() => parseSizes('5')).toThrow(/at least 10/);
  });
});

describe('index bytes per table', () => {
  it('counts shadow tables towards their virtual table and indexes towards their table', () => {
    const tableOf = new Map([['chunks_by_path', 'chunks'], ['chunks', 'chunks'], ['chunks_fts_data', 'chunks_fts_data'], ['vec_g1_rowids', 'vec_g1_rowids']]);
    const virtual = ['chunks_fts', 'vec_g1', 'vec_g'];
    expect(owningTable('chunks_by_path', tableOf, virtual)).toBe('chunks');
    expect(owningTable('chunks_fts_data', tableOf, virtual)).toBe('chunks_fts');
    expect(owningTable('vec_g1_rowids', tableOf, virtual)).toBe('vec_g1');
    expect(owningTable('sqlite_autoindex_chunks_fts_config_1', new Map([['sqlite_autoindex_chunks_fts_config_1', 'chunks_fts_config']]), virtual)).toBe('chunks_fts');
  });
});

describe('summarizeCpuProfile', () => {
  it('attributes each sample to the phase window it falls in', () => {
    const dir = tempDir();
    const file = path.join(dir, 'run.cpuprofile');
    const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 9, columnNumber: 0, scriptId: '1' });
    fs.writeFileSync(file, JSON.stringify({
      nodes: [
        { id: 1, callFrame: frame('(root)', ''), children: [2, 3] },
        { id: 2, callFrame: frame('chunkMarkdown', 'file:///repo/core/src/index/chunker.ts') },
        { id: 3, callFrame: frame('extractFile', 'file:///repo/core/src/graph/extractFile.ts'), children: [4] },
        { id: 4, callFrame: frame('run', 'file:///repo/node_modules/better-sqlite3/lib/methods/wrappers.js') },
      ],
      startTime: 1_000,
      endTime: 2_000,
      // Samples at 1000 (index), 1100 (index), 1300 (graph), 1600 (graph), 1900 (after every window).
      samples: [2, 2, 3, 4, 2],
      timeDeltas: [0, 100, 200, 300, 300],
    }));
    const phases = summarizeCpuProfile(file, [{ phase: 'index', startUs: 1_000, endUs: 1_200 }, { phase: 'graph', startUs: 1_200, endUs: 1_800 }]);
    const byPhase = Object.fromEntries(phases.map((p) => [p.phase, p]));
    expect(byPhase.index!.sampled_ms).toBe(0.3); // 100 + 200 µs until the next samples
    expect(byPhase.index!.top_functions[0]!.name).toBe('chunkMarkdown core/src/index/chunker.ts');
    // SQLite's time (run) is its own function, and also charged to the product function that called it.
    expect(byPhase.graph!.top_functions.map((f) => [f.name, f.ms])).toEqual([['extractFile core/src/graph/extractFile.ts', 0.3], ['run better-sqlite3/lib/methods/wrappers.js', 0.3]]);
    expect(byPhase.graph!.top_core_callers).toEqual([{ name: 'extractFile core/src/graph/extractFile.ts', ms: 0.6, pct: 100 }]);
    expect(byPhase.graph!.top_files.map((f) => f.name)).toEqual(['core/src/graph/extractFile.ts', 'better-sqlite3/lib/methods/wrappers.js']);
    expect(byPhase.other).toBeUndefined(); // the last sample has no following time
  });
});

describe('generated Claude Code transcripts', () => {
  it('fill the byte budget deterministically, and the engine ingests every one', async () => {
    const root = tempDir();
    const workspace = path.join(root, 'workspace');
    fs.mkdirSync(path.join(workspace, 'memory'), { recursive: true });
    const corpus = new SyntheticCorpus(workspace);
    corpus.writeRootFiles();
    corpus.writeNotes(3);
    const home = path.join(root, 'claude');
    const budget = 160 * 1024;
    const written = writeClaudeHome(home, budget, corpus);
    const again = writeClaudeHome(path.join(root, 'claude-again'), budget, new SyntheticCorpus(path.join(root, 'unused')));
    expect(written.bytes).toBeGreaterThanOrEqual(budget);
    expect(written.bytes).toBeLessThan(budget + 16 * 1024); // the last file stops at its own budget
    expect({ ...again, seconds: 0 }).toEqual({ ...written, seconds: 0 });

    const service = new MemoryService({ dataDir: path.join(root, 'data'), workspace: resolveExistingWorkspace(workspace) });
    try {
      const report = await service.invoke('sessions.ingest', { homes: { 'claude-code': home } });
      expect(report).toMatchObject({ transcripts: written.files, added: written.files, failed: 0, skipped: 0, malformedLines: 0, unknownLines: 0 });
      // Tool results are `user` lines but not messages: 3 of every 4 lines are conversation.
      expect(report.messages).toBe((written.lines / 4) * 3);
      const hits = await service.invoke('memory.search', { query: corpus.lex.projects[0]!, sources: ['sessions'], recall: false });
      expect(hits.results.length).toBeGreaterThan(0);
      const bytes = measureIndexBytes(service.indexPath);
      expect(bytes.method).toBe('dbstat');
      expect(Object.keys(bytes.tables)).toEqual(expect.arrayContaining(['chunks', 'chunks_fts']));
      expect(Object.values(bytes.btrees).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(bytes.file_bytes);
    } finally {
      await service.close();
    }
  });
});
