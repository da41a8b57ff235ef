/**
 * Adding an agent tool is one registry entry: a throwaway tool, registered before anything
 * reads the contract (as a tool of a later version would be listed in tools.ts), is seen in the
 * contract's enums, in import detection and indexing, in transcript ingestion and in the graph.
 * It reuses formats Reverie reads already: Claude Code's transcripts, Hermes' memory files.
 *
 * Everything but the registry is imported dynamically, after the registration.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAgentTool } from '../src/contract/tools.js';

const TOOL = 'quill';
registerAgentTool({
  id: TOOL,
  label: 'Quill',
  home: { env: 'QUILL_TEST_HOME', default: '.quill-test' },
  transcripts: 'claude-code-jsonl',
  imports: 'hermes-memories',
  mcpConfig: null,
  ringColor: '#0f766e',
  cliFlag: 'quill',
});

const contract = await import('../src/contract/index.js');
const { MemoryService } = await import('../src/engine/memoryService.js');
const { resolveExistingWorkspace } = await import('../src/workspace/resolveWorkspace.js');
const { detectImportSources } = await import('../src/importers/detect.js');
const { openIndexDatabase } = await import('../src/index/database.js');

type Service = InstanceType<typeof MemoryService>;
let base: string;
let home: string;
let workspace: string;
let dataDir: string;
let service: Service;

const transcriptLine = (type: 'user' | 'assistant', text: string, at: string) =>
  JSON.stringify({ type, sessionId: 'q-1', cwd: '/home/dana/src/quill', timestamp: at, message: { role: type, content: type === 'user' ? text : [{ type: 'text', text }] } });

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-new-tool-')));
  home = path.join(base, 'quill-home');
  workspace = path.join(base, 'workspace');
  dataDir = path.join(base, 'data');
  fs.mkdirSync(path.join(home, 'memories'), { recursive: true });
  fs.writeFileSync(path.join(home, 'memories', 'MEMORY.md'), 'Quill deploys run through the Zephyr pipeline.\n§\nThe Zephyr pipeline is owned by Marisol.\n');
  fs.mkdirSync(path.join(home, 'projects', '-home-dana-src-quill'), { recursive: true });
  fs.writeFileSync(
    path.join(home, 'projects', '-home-dana-src-quill', 'q-1.jsonl'),
    [transcriptLine('user', 'Where does the quartzite cache live?', '2026-11-02T09:00:00.000Z'), transcriptLine('assistant', 'The quartzite cache lives on the build host.', '2026-11-02T09:00:05.000Z')].join('\n') + '\n',
  );
  fs.mkdirSync(path.join(workspace, 'memory'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'MEMORY.md'), '# Memory\n');
  service = new MemoryService({ dataDir, workspace: resolveExistingWorkspace(workspace) });
});

afterAll(async () => {
  await service?.close();
  fs.rmSync(base, { recursive: true, force: true });
});

describe('a tool added to the registry', () => {
  it("is in the contract's enums and default settings", () => {
    expect(contract.TranscriptTool.options).toContain(TOOL);
    expect(contract.ImportTool.options).toContain(TOOL);
    expect(contract.SourceTool.options).toContain(TOOL);
    expect(contract.DEFAULT_SETTINGS.sessions[TOOL]).toBeNull();
    expect(contract.operations['sessions.ingest'].input.safeParse({ homes: { [TOOL]: home } }).success).toBe(true);
    expect(contract.operations['sessions.ingest'].input.safeParse({ homes: { 'not-a-tool': home } }).success).toBe(false);
    expect(contract.toolLabel(TOOL)).toBe('Quill');
  });

  it('is detected at its default home (its environment variable), and a missing home is "not found", not a crash', () => {
    const [found] = detectImportSources([{ tool: TOOL }], { env: { QUILL_TEST_HOME: home } });
    expect(found).toMatchObject({ tool: TOOL, home, exists: true });
    expect(found!.collections.flatMap((c) => c.files.map((f) => f.relPath))).toEqual(['MEMORY.md']);
    const [missing] = detectImportSources([{ tool: TOOL }], { env: {}, userHome: path.join(base, 'nobody') });
    expect(missing).toMatchObject({ tool: TOOL, exists: false, collections: [] });
    expect(missing!.notes.join(' ')).toMatch(/No folder at/);
  });

  it('imports into memory/imports/<tool>/, is indexed by its format entry by entry, and its entities carry it as their source', async () => {
    const report = await service.invoke('import.apply', { sources: [{ tool: TOOL, home }] });
    expect(report).toMatchObject({ outcome: 'completed', copied: 1 });
    const destination = report.items[0]!.destination!;
    expect(destination.startsWith(`memory/imports/${TOOL}/`)).toBe(true);
    const { results } = await service.invoke('memory.search', { query: 'Zephyr pipeline owned', sources: ['memory'] });
    const hit = results.find((r) => r.path === destination);
    // Hermes entries are split at §: the owner line is its own chunk.
    expect(hit).toMatchObject({ origin: 'agent' });
    expect(hit!.snippet).toContain('owned by Marisol');
    expect(hit!.snippet).not.toContain('deploys run');
    await service.invoke('index.sync', { force: false });
    const { entities } = await service.invoke('graph.search', { text: 'Marisol' });
    expect(entities[0]?.sources).toContain(TOOL);
    const overview = await service.invoke('graph.overview', { filters: { tools: [TOOL] } });
    expect(overview.entities.length).toBeGreaterThan(0);
  });

  it("ingests its transcripts under sessions/<tool>/ with the tool in their provenance (the schema has no tool CHECK)", async () => {
    const ingest = await service.invoke('sessions.ingest', { homes: { [TOOL]: home } });
    expect(ingest).toMatchObject({ added: 1, failed: 0 });
    const { results } = await service.invoke('memory.search', { query: 'quartzite cache', sources: ['sessions'] });
    expect(results[0]?.path).toBe(`sessions/${TOOL}/projects/-home-dana-src-quill/q-1.jsonl`);
    const chain = await service.invoke('provenance.get', { ref: results[0]!.id });
    expect(chain.transcript).toMatchObject({ tool: TOOL, sessionId: 'q-1' });
    expect((await service.invoke('settings.get', {})).sessions[TOOL]).toBe(home);

    const db = openIndexDatabase(service.indexPath, { readonly: true }).db;
    try {
      for (const table of ['transcripts', 'graph_entries']) {
        const { sql } = db.prepare("SELECT sql FROM sqlite_master WHERE name = ?").get(table) as { sql: string };
        expect(sql).not.toMatch(/CHECK \(tool IN/);
      }
    } finally {
      db.close();
    }
  });
});
