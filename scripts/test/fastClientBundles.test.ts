import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFastClients, FAST_CLIENTS } from '../bundleFastClients.mjs';
import type { MemoryService } from '../../core/src/engine/memoryService.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from '../../core/test/helpers/workspace.js';

let outRoot: string;
let bundles: Record<string, string>;

beforeAll(async () => {
  outRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-bundles-'));
  const written = await bundleFastClients(outRoot);
  bundles = Object.fromEntries(written.map((file) => [path.basename(file), file]));
}, 120_000);
afterAll(() => fs.rmSync(outRoot, { recursive: true, force: true }));

/** Runs `code` in a fresh Node (CommonJS, as bin/reverie.js requires a bundle) with `stdin`. */
function runNode(code: string, args: string[], stdin: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', code, '--', ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end(stdin);
    child.on('exit', (exitCode) => resolve({ code: exitCode, stdout, stderr }));
  });
}

describe('fast client bundles (hook, thin mcp, thin search)', () => {
  it('lists every source a bundle runs, the dynamically imported no-host hook included, and uses no package', () => {
    for (const [entry, bundle] of FAST_CLIENTS) {
      const inputs = JSON.parse(fs.readFileSync(path.join(outRoot, `${bundle}.inputs.json`), 'utf8')) as string[];
      expect(inputs).toContain(entry);
      for (const input of inputs) expect(fs.existsSync(path.join(process.cwd(), input)), input).toBe(true);
      // A package inside a bundle would be a second copy that drifts from node_modules.
      expect(fs.readFileSync(path.join(outRoot, bundle), 'utf8')).not.toMatch(/node_modules/);
    }
    const hookInputs = JSON.parse(fs.readFileSync(path.join(outRoot, 'out/core/cli/hook/hookMain.bundle.cjs.inputs.json'), 'utf8')) as string[];
    expect(hookInputs).toContain('core/src/cli/hook/localHook.ts');
    expect(hookInputs).toContain('core/src/platform/log/engineLog.ts');
  });

  describe('against a running host', () => {
    let ws: TempWorkspace;
    let service: MemoryService;
    let token: string;
    beforeAll(async () => {
      ws = createTempWorkspace({ ...SAMPLE_NOTES, 'MEMORY.md': `${SAMPLE_NOTES['MEMORY.md']}- Deploy ledgerd with make release, never by hand. <!-- trigger: deploy ledgerd -->\n` });
      service = openService(ws);
      ({ token } = await service.invoke('agents.add', { name: 'claude-code' }));
      await service.sync(false);
      await service.startHosting({ kind: 'serve', url: null });
    }, 120_000);
    afterAll(async () => {
      await service.close();
      ws.cleanup();
    });

    it('the bundled hook answers UserPromptSubmit through the host in Claude Code\'s format', async () => {
      const stdin = JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 's1', cwd: ws.root, prompt: 'how do I deploy ledgerd?' });
      const code = `require(${JSON.stringify(bundles['hookMain.bundle.cjs'])}).runHook(process.argv.slice(1)).then((c) => process.exit(c))`;
      const run = await runNode(code, ['UserPromptSubmit', '--workspace', ws.root, '--data-dir', ws.dataDir], stdin, { REVERIE_AGENT_TOKEN: token, REVERIE_HOOK_TIMEOUT_MS: '20000' });
      expect(run.code).toBe(0);
      const answer = JSON.parse(run.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
      expect(answer.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
      expect(answer.hookSpecificOutput.additionalContext).toContain('Deploy ledgerd with make release');
    }, 60_000);

    it('the bundled thin search prints what the host found, and runs the fallback when no host serves the folder', async () => {
      const code = `require(${JSON.stringify(bundles['thinCommands.bundle.cjs'])}).runThinCommand(process.argv.slice(1), async () => { console.log('FULL COMMAND'); return 3; }).then((c) => process.exit(c))`;
      const found = await runNode(code, ['search', 'ledgerd release', '--workspace', ws.root, '--data-dir', ws.dataDir, '--json'], '', {});
      expect(found.code).toBe(0);
      expect((JSON.parse(found.stdout) as Array<{ path: string }>).map((r) => r.path)).toContain('MEMORY.md');
      const elsewhere = await runNode(code, ['search', 'ledgerd', '--workspace', ws.root, '--data-dir', path.join(ws.dataDir, 'no-host-here')], '', {});
      expect(elsewhere.stdout.trim()).toBe('FULL COMMAND');
      expect(elsewhere.code).toBe(3);
    }, 60_000);
  });
});
