import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ownerTokenPath } from '../src/agents/socket/ownerToken.js';
import { runThinCommand } from '../src/cli/fast/thinCommands.js';
import { capturingStdout } from './helpers/cli.js';
import { scriptedHost, type ScriptedHost } from './helpers/scriptedHost.js';
import { createTempWorkspace, type TempWorkspace } from './helpers/workspace.js';

/** The thin `reverie search` against a host that answers what the test scripts: it prints only answers it can read in full. */
let ws: TempWorkspace;
let host: ScriptedHost | null = null;

afterEach(async () => {
  await host?.close();
  host = null;
  ws?.cleanup();
});

const RESULT = { id: 'chunk:1', path: 'MEMORY.md', source: 'memory', startLine: 3, endLine: 4, snippet: '- The NAS is called atlas.', score: 0.5, matchedBy: ['keyword'] };

/** Runs `reverie search atlas` on the thin path against `results`; what it printed, or null when it ran the full command instead. */
async function thinSearch(results: unknown): Promise<string | null> {
  ws = createTempWorkspace({ 'MEMORY.md': '# Memory\n' });
  host = await scriptedHost(ws.dataDir, { 'host.invoke': { results } });
  fs.writeFileSync(ownerTokenPath(ws.dataDir), 'owner-token');
  let fellBack = false;
  const { out, result } = await capturingStdout(() =>
    runThinCommand(['search', 'atlas', '--workspace', ws.root, '--data-dir', ws.dataDir], async () => {
      fellBack = true;
      return 0;
    }),
  );
  expect(result).toBe(0);
  expect(host.seen).toEqual(['host.invoke']);
  await host.close();
  host = null;
  ws.cleanup();
  return fellBack ? null : out;
}

describe('thin reverie search and the host it asks', () => {
  it('prints a well-formed answer as the full command formats it', async () => {
    expect(await thinSearch([RESULT, { ...RESULT, path: 'memory/2026-04-06.md', alsoIn: [{ path: 'memory/imports/a.md', startLine: 1, endLine: 2 }], entryKinds: [{ startLine: 1, endLine: 1, kind: 'fact', validUntil: null }] }])).toBe(
      'MEMORY.md:3-4  (score 0.50)\n    - The NAS is called atlas.\n\nmemory/2026-04-06.md:3-4  (score 0.50; fact)\n    - The NAS is called atlas.\n    also in memory/imports/a.md:1-2\n\n',
    );
  }, 60_000);

  it('runs the full command for an answer that lacks a field it prints', async () => {
    const { snippet: _snippet, ...noSnippet } = RESULT;
    for (const results of [undefined, 'none', [noSnippet], [{ ...RESULT, score: '0.5' }], [{ ...RESULT, alsoIn: [{ path: 'a.md' }] }], [{ ...RESULT, entryKinds: [{}] }]]) {
      expect(await thinSearch(results), JSON.stringify(results)).toBeNull();
    }
  }, 60_000);
});
