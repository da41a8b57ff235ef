import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryService } from '../src/engine/memoryService.js';
import { searchText } from '../src/agents/mcp/toolText.js';
import { resolveExistingWorkspace } from '../src/workspace/resolveWorkspace.js';
import { makeImportSandbox, type ImportSandbox } from './fixtures/import-sources/sandbox.js';

let box: ImportSandbox;
let service: MemoryService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
  box?.cleanup();
});

function writeProfile(memories: string, entries: string[]): void {
  fs.mkdirSync(memories, { recursive: true });
  fs.writeFileSync(path.join(memories, 'MEMORY.md'), `${entries.join('\n§\n')}\n`);
}

describe('a Hermes entry repeated in two profiles', () => {
  it('comes back as one hit that names the other copy in alsoIn', async () => {
    box = makeImportSandbox();
    const home = path.join(box.dir, 'hermes-home');
    const repeated = 'The espresso grinder is set to 2.5 for the Ethiopian beans.';
    // First in one file, third in the other: the chunks differ (the second holds the `§` line before it, 4-5), the entry does not.
    writeProfile(path.join(home, 'memories'), [repeated, 'The office plants get water on Mondays.']);
    writeProfile(path.join(home, 'profiles', 'work', 'memories'), ['Deploys go out on Thursdays.', 'Standup is at 9:30.', repeated]);
    service = new MemoryService({ dataDir: box.dataDir, workspace: resolveExistingWorkspace(box.workspace) });
    await service.invoke('import.apply', { sources: [{ tool: 'hermes', home }] });
    await service.invoke('index.sync', { force: false });

    const { results } = await service.invoke('memory.search', { query: 'espresso grinder Ethiopian beans', sources: ['memory'] });
    const hits = results.filter((r) => r.snippet.includes('espresso grinder'));
    expect(hits).toHaveLength(1);
    const other = hits[0]!.path === 'memory/imports/hermes/default/MEMORY.md'
      ? { path: 'memory/imports/hermes/work/MEMORY.md', startLine: 4, endLine: 5 }
      : { path: 'memory/imports/hermes/default/MEMORY.md', startLine: 1, endLine: 1 };
    expect(hits[0]!.alsoIn).toEqual([other]);
    // Entries that differ stay apart, with nothing in alsoIn.
    const { results: plants } = await service.invoke('memory.search', { query: 'office plants water', sources: ['memory'] });
    expect(plants[0]?.alsoIn).toBeUndefined();
    // An agent reading the answer over MCP is told where the other copy is.
    expect(searchText({ results: hits, tookMs: 0 })).toContain(`also in ${other.path} lines ${other.startLine}-${other.endLine}`);
  }, 120_000);
});
