import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace;
let service: MemoryService;

beforeAll(async () => {
  ws = createTempWorkspace(SAMPLE_NOTES);
  // Filler notes make "common" words really common, as in a real workspace.
  for (let i = 0; i < 120; i++) {
    ws.write(`memory/filler/2025-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}-f${i}.md`,
      `# Filler ${i}\n\n- What did the team do today? They had a meeting and talked about the weather.\n- Note ${i}: the usual standup, nothing new.\n`);
  }
  ws.write('memory/long-lines.md', `# Long\n\n${'padding words here '.repeat(200)}the quasar observation happened\n`);
  service = openService(ws);
  await service.invoke('index.sync', { force: false });
});
afterAll(async () => {
  await service.close();
  ws.cleanup();
});

const search = async (query: string, extra: object = {}) =>
  (await service.invoke('memory.search', { query, ...extra })).results;

describe('keyword search', () => {
  it('answers natural-language questions, not only exact AND matches', async () => {
    const [top] = await search('why did we move atlas off docker compose?');
    expect(top?.path).toBe('memory/2026-04-06.md');
    const [release] = await search('When is the ledgerd release now?');
    expect(release?.path).toBe('memory/projects/ledgerd.md');
    // Stemming: "upgrading" finds "upgraded".
    expect((await search('upgrading postgres'))[0]?.path).toBe('MEMORY.md');
  });

  it('survives any input: quotes, operators, emoji, column filters, 10 kB queries', async () => {
    const nasty = [
      '"unbalanced quote',
      'AND OR NOT',
      'NEAR(atlas restic, 2)',
      'text: atlas*',
      '^restic',
      '(((',
      '🦀🔥 restic 😀',
      "it's Sam's",
      '-- DROP TABLE chunks; --',
      '   ',
      '\u0000\u0001',
      'x'.repeat(10_000),
      'atlas '.repeat(2000),
      '東京の記憶',
    ];
    for (const q of nasty) {
      const results = await search(q);
      expect(Array.isArray(results)).toBe(true);
    }
    expect((await search('🦀🔥 restic 😀'))[0]?.path).toBe('MEMORY.md');
    expect((await search('NEAR(atlas restic, 2)')).length).toBeGreaterThan(0);
  });

  it('finds a daily note by its date and a file by its path', async () => {
    const byDate = await search('2026-04-05');
    expect(byDate[0]).toMatchObject({ path: 'memory/2026-04-05.md', matchedBy: ['date'] });
    const byPath = await search('projects/ledgerd.md');
    expect(byPath[0]).toMatchObject({ path: 'memory/projects/ledgerd.md', matchedBy: ['path'] });
  });

  it('returns line-focused snippets of at most 700 characters with exact 1-based line ranges', async () => {
    const results = await search('quasar observation');
    expect(results[0]?.path).toBe('memory/long-lines.md');
    for (const r of [...results, ...(await search('meeting weather standup', { limit: 50 }))]) {
      expect(r.snippet.length).toBeLessThanOrEqual(700);
      expect(r.startLine).toBeGreaterThanOrEqual(1);
      expect(r.endLine).toBeGreaterThanOrEqual(r.startLine);
      expect(r.id).toMatch(/^chunk:\d+$/);
    }
    const [restic] = await search('restic hetzner');
    expect(restic).toMatchObject({ path: 'MEMORY.md' });
    const fileLines = SAMPLE_NOTES['MEMORY.md']!.split('\n');
    const cited = fileLines.slice(restic!.startLine - 1, restic!.endLine).join('\n');
    expect(cited).toContain('restic backups to a Hetzner storage box');
    expect(restic!.snippet).toBe(cited);
  });

  it('ranks rare words above question words and common filler', async () => {
    const results = await search('what did the team say about Piranesi today?');
    expect(results[0]?.path).toBe('memory/2026-04-05.md');
  });

  it('treats a half-typed last word as a prefix without dropping the other words', async () => {
    const results = await search('piranesi susa');
    expect(results[0]?.path).toBe('memory/2026-04-05.md');
    const typing = await search('docker comp');
    expect(typing[0]?.path).toBe('memory/2026-04-06.md');
  });

  it('lets every content word select on a small index (common words do not silence the rest)', async () => {
    // "meeting" is in every filler note, "dentist" in one: both must count.
    const results = await search('dentist meeting', { limit: 20 });
    expect(results[0]?.path).toBe('memory/2026-04-05.md');
    expect(results.some((r) => r.path.startsWith('memory/filler/'))).toBe(true);
  });

  it('validates input against the contract', async () => {
    await expect(service.invokeUnchecked('memory.search', { query: 'x', limit: 0 })).rejects.toMatchObject({ code: 'invalid-input' });
    await expect(service.invokeUnchecked('memory.search', { query: 'x', sources: ['web'] })).rejects.toThrow(/sources/);
    await expect(service.invokeUnchecked('memory.search', { query: 'x'.repeat(20_001) })).rejects.toThrow(/longer than/);
    await expect(service.invokeUnchecked('memory.search', { query: 'x', extra: 1 })).rejects.toMatchObject({ code: 'invalid-input' });
  });
});
