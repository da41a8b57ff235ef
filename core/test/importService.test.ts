import type Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryService } from '../src/engine/memoryService.js';
import { resolveExistingWorkspace } from '../src/workspace/resolveWorkspace.js';
import { cliEnv, runCli } from './helpers/cli.js';
import { hashTree, makeImportSandbox, type ImportSandbox } from './fixtures/import-sources/sandbox.js';

let box: ImportSandbox;
let service: MemoryService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
  box?.cleanup();
});

describe('imports through the contract', () => {
  it('plans, applies, indexes imported memory as agent-written with its origin, and re-applies as a no-op', async () => {
    box = makeImportSandbox();
    const sources = [
      { tool: 'codex' as const, home: box.codexHome },
      { tool: 'claude-code' as const, home: box.claudeHome },
      { tool: 'hermes' as const, home: box.hermesHome },
    ];
    const before = [box.codexHome, box.claudeHome, box.hermesHome].map((h) => JSON.stringify(hashTree(h)));
    service = new MemoryService({ dataDir: box.dataDir, workspace: resolveExistingWorkspace(box.workspace) });
    const plan = await service.invoke('import.plan', { sources });
    expect(plan.items.filter((i) => i.status === 'new').length).toBeGreaterThan(3);

    const report = await service.invoke('import.apply', { plan });
    expect(report).toMatchObject({ outcome: 'completed', replaced: 0 });
    expect(report.copied).toBe(plan.items.filter((i) => i.status === 'new').length);
    expect([box.codexHome, box.claudeHome, box.hermesHome].map((h) => JSON.stringify(hashTree(h)))).toEqual(before);

    const st = await service.invoke('status', {});
    const imported = st.files.filter((f) => f.path.startsWith('memory/imports/'));
    expect(imported.length).toBe(report.copied);
    const copiedItem = report.items.find((i) => i.action === 'copied' && i.destination?.endsWith('.md'))!;
    const chain = await service.invoke('provenance.get', { ref: `${copiedItem.destination}:1-3` });
    expect(chain.origin).toBe('agent');
    const written = chain.lines.find((l) => l.writtenBy)!;
    expect(written.writtenBy).toMatchObject({ via: 'import', actor: copiedItem.tool });
    expect(JSON.parse(written.writtenBy!.detail!)).toMatchObject({ originalPath: copiedItem.sourcePath, collection: copiedItem.collection });

    const { results } = await service.invoke('memory.search', { query: 'ledgerd', sources: ['memory'], limit: 20 });
    expect(results.some((r) => r.path.startsWith('memory/imports/') && r.origin === 'agent')).toBe(true);

    const again = await service.invoke('import.apply', { sources });
    expect(again).toMatchObject({ copied: 0, replaced: 0 });
    expect((await service.invoke('import.reports', {})).reports).toHaveLength(2);
  });

  it('indexes imported Hermes memory by entry: a hit is one § entry, not the whole file', async () => {
    box = makeImportSandbox();
    service = new MemoryService({ dataDir: box.dataDir, workspace: resolveExistingWorkspace(box.workspace) });
    await service.invoke('import.apply', { sources: [{ tool: 'hermes', home: box.hermesHome }] });
    const db = (service as unknown as { db: Database.Database }).db;
    const rows = db.prepare("SELECT start_line, end_line, chunk_text(text) AS text FROM chunks WHERE path LIKE 'memory/imports/hermes/%/MEMORY.md' ORDER BY start_line").all() as Array<{ start_line: number; end_line: number; text: string }>;
    expect(rows.length).toBeGreaterThanOrEqual(3);
    const goose = rows.find((r) => r.text.includes('goose'))!;
    expect(goose.text).not.toContain('Ubuntu');
    expect(goose.text).not.toContain('emojis');
    const { results } = await service.invoke('memory.search', { query: 'goose duplicate version', sources: ['memory'] });
    expect(results[0]?.snippet).toContain('goose');
    expect(results[0]?.snippet).not.toContain('Ubuntu');
  });

  it('refuses a saved plan that no longer matches the disk', async () => {
    box = makeImportSandbox();
    service = new MemoryService({ dataDir: box.dataDir, workspace: resolveExistingWorkspace(box.workspace) });
    const plan = await service.invoke('import.plan', { sources: [{ tool: 'hermes', home: box.hermesHome }] });
    const item = plan.items.find((i) => i.status === 'new')!;
    fs.appendFileSync(item.sourcePath, '\n§\nA new entry written after planning.\n');
    await expect(service.invoke('import.apply', { plan })).rejects.toMatchObject({ code: 'conflict' });
    expect(fs.existsSync(path.join(box.workspace, 'memory', 'imports'))).toBe(false);
  });

  it('reverie import apply --json reports counts and the report path; --plan checks the fingerprint', async () => {
    box = makeImportSandbox();
    const env = cliEnv(box.dataDir);
    const planOut = await runCli(['import', 'plan', '--source', 'codex', '--from', box.codexHome, '--json', '--workspace', box.workspace], env);
    expect(planOut.code).toBe(0);
    const planFile = path.join(box.dir, 'plan.json');
    fs.writeFileSync(planFile, planOut.stdout);
    const applied = await runCli(['import', 'apply', '--plan', planFile, '--json', '--workspace', box.workspace], env);
    expect(applied.code).toBe(0);
    const summary = JSON.parse(applied.stdout);
    expect(summary).toMatchObject({ outcome: 'completed', replaced: 0, unchanged: 0 });
    expect(summary.copied).toBeGreaterThan(0);
    expect(fs.existsSync(summary.report)).toBe(true);
    const bad = await runCli(['import', 'apply', '--plan', path.join(box.dir, 'missing.json'), '--workspace', box.workspace], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Cannot read the plan');
  });

  it('import detect --claude DIR looks in that folder only, like sessions ingest --claude DIR', async () => {
    box = makeImportSandbox();
    const env = cliEnv(box.dataDir);
    const out = await runCli(['import', 'detect', '--claude', box.claudeHome, '--json', '--workspace', box.workspace], env);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const sources = JSON.parse(out.stdout) as Array<{ tool: string; home: string; collections: unknown[] }>;
    expect(sources.map((s) => [s.tool, s.home])).toEqual([['claude-code', box.claudeHome]]);
    expect(sources[0]!.collections.length).toBeGreaterThan(0);
    const both = await runCli(['import', 'detect', '--claude', box.claudeHome, '--hermes', box.hermesHome, '--json', '--workspace', box.workspace], env);
    expect((JSON.parse(both.stdout) as Array<{ tool: string; home: string }>).map((s) => [s.tool, s.home])).toEqual([['claude-code', box.claudeHome], ['hermes', box.hermesHome]]);
  });

  it("names Hermes' lock file and drift backup in the plan's text and the import's report (every source file accounted for)", async () => {
    box = makeImportSandbox();
    const env = cliEnv(box.dataDir);
    const plan = await runCli(['import', 'plan', '--hermes', box.hermesHome, '--workspace', box.workspace], env);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/note +hermes: Not imported: \S+MEMORY\.md\.lock \(Hermes' lock file, not memory\)/);
    expect(plan.stdout).toMatch(/note +hermes: Not imported: \S+MEMORY\.md\.bak\.20260301 \(a Hermes drift backup/);
    const applied = await runCli(['import', 'apply', '--hermes', box.hermesHome, '--json', '--workspace', box.workspace], env);
    expect(applied.code).toBe(0);
    const reportPath = JSON.parse(applied.stdout).report as string;
    const report = JSON.parse(fs.readFileSync(reportPath, 'utf8')) as { notes: string[] };
    expect(report.notes.filter((n) => /MEMORY\.md\.(lock|bak\.20260301) \(/.test(n))).toHaveLength(2);
    const markdown = fs.readFileSync(reportPath.replace(/\.json$/, '.md'), 'utf8');
    expect(markdown).toContain('## Notes');
    expect(markdown).toContain("MEMORY.md.lock (Hermes' lock file, not memory)");
  });
});

