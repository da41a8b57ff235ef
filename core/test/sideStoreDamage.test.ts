import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentDatabasePath } from '../src/agents/agentDatabase.js';
import { dreamDatabasePath } from '../src/dreaming/dreamDatabase.js';
import { cliEnv, runCli, type CliResult } from './helpers/cli.js';
import { scribbleOverPages } from './helpers/damagePages.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace | undefined;
afterEach(() => {
  ws?.cleanup();
  ws = undefined;
});

/** The dreaming and agents stores hold records nothing can rebuild: damage inside them is an error naming the file, never a rebuild. */
function expectNamedDamage(run: CliResult, file: string): void {
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(`${file} is damaged`);
  expect(run.stderr).toMatch(/restore .* from a backup, or move it aside to start a fresh one/i);
  expect(run.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m); // no stack trace
  expect(run.stderr).not.toMatch(/Internal error/);
}

const copiesOf = (file: string) => fs.readdirSync(path.dirname(file)).filter((n) => n.startsWith(`${path.basename(file)}.damaged-`));

describe('damaged pages inside the dreaming and agents stores', () => {
  it('`dream runs` and `status` name the dreaming store, say what to do, exit 1, and leave it in place with a copy beside it', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    const service = openService(ws);
    await service.invoke('index.sync', { force: false });
    for (let i = 0; i < 3; i++) await service.invoke('dream.run', { dryRun: false });
    await service.close();
    const file = dreamDatabasePath(ws.dataDir, service.workspace.id);
    expect(scribbleOverPages(file, 'dream_runs')).toBeGreaterThan(0);
    const damaged = fs.readFileSync(file);

    const at = ['--workspace', ws.root, '--data-dir', ws.dataDir];
    expectNamedDamage(await runCli(['dream', 'runs', ...at], cliEnv(ws.dataDir)), file);
    expectNamedDamage(await runCli(['status', ...at], cliEnv(ws.dataDir)), file);
    expect(fs.readFileSync(file).equals(damaged)).toBe(true); // not moved, not rewritten
    expect(copiesOf(file).length).toBeGreaterThan(0);
    // The index is sound and was not rebuilt for another store's damage.
    expect(fs.readdirSync(path.dirname(service.indexPath)).some((n) => n.includes('.corrupt-'))).toBe(false);
  });

  it('`reverie mcp` and `agents list` name the agents store instead of crashing on a token check', async () => {
    ws = createTempWorkspace(SAMPLE_NOTES);
    const service = openService(ws);
    const { token } = await service.invoke('agents.add', { name: 'scribe', write: false });
    await service.close();
    const file = agentDatabasePath(ws.dataDir, service.workspace.id);
    expect(scribbleOverPages(file, 'agents')).toBeGreaterThan(0);

    const at = ['--workspace', ws.root, '--data-dir', ws.dataDir];
    expectNamedDamage(await runCli(['mcp', ...at], cliEnv(ws.dataDir, { REVERIE_AGENT_TOKEN: token })), file);
    expectNamedDamage(await runCli(['agents', 'list', ...at], cliEnv(ws.dataDir)), file);
    expect(fs.existsSync(file)).toBe(true);
  });
});
