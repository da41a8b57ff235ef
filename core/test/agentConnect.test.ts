import fs from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import { parse as parseJsonc } from 'jsonc-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryService } from '../src/engine/memoryService.js';
import { cliEnv, runCli } from './helpers/cli.js';
import { createTempWorkspace, openService, SAMPLE_NOTES, type TempWorkspace } from './helpers/workspace.js';

const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'toolConfigs');
let ws: TempWorkspace;
let home: string;
let service: MemoryService | null = null;
const saved = { HOME: process.env.HOME, CODEX_HOME: process.env.CODEX_HOME, HERMES_HOME: process.env.HERMES_HOME };

/** A fake home holding each tool's real configuration file, as a person's machine would. */
function fakeHome(): Record<string, string> {
  const files: Record<string, [string, string]> = {
    claudeJson: ['claude.json', '.claude.json'],
    claudeSettings: ['claude-settings.json', '.claude/settings.json'],
    codexConfig: ['codex-config.toml', '.codex/config.toml'],
    hermesConfig: ['hermes-config.yaml', '.hermes/config.yaml'],
    openclaw: ['openclaw.json', '.openclaw/openclaw.json'],
  };
  const out: Record<string, string> = {};
  for (const [key, [fixture, rel]] of Object.entries(files)) {
    const target = path.join(home, rel);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.join(FIXTURES, fixture), target);
    out[key] = target;
  }
  return out;
}

beforeEach(() => {
  ws = createTempWorkspace(SAMPLE_NOTES);
  home = path.join(ws.dataDir, 'home');
  fs.mkdirSync(home, { recursive: true });
  process.env.HOME = home;
  delete process.env.CODEX_HOME;
  delete process.env.HERMES_HOME;
  service = openService(ws);
});

afterEach(async () => {
  await service?.close();
  service = null;
  Object.assign(process.env, saved);
  for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
  ws.cleanup();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed configuration files, walked freely in assertions
type Loose = Record<string, any>;

const read = (file: string) => fs.readFileSync(file, 'utf8');
const withoutKey = (value: Record<string, unknown>, pathKeys: string[]) => {
  const copy = structuredClone(value);
  let node = copy as Record<string, unknown>;
  for (const key of pathKeys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  delete node[pathKeys[pathKeys.length - 1]!];
  return copy;
};

describe('reverie agents connect / disconnect', () => {
  it("writes each tool's own configuration, keeping everything else, and connecting twice changes nothing", async () => {
    const files = fakeHome();
    const before = Object.fromEntries(Object.entries(files).map(([k, f]) => [k, read(f)]));
    for (const tool of ['claude-code', 'codex', 'hermes', 'openclaw'] as const) {
      const result = await service!.invoke('agents.connect', { tool });
      expect(result.files.every((f) => f.action === 'changed' || (f.action === 'created' && f.path.endsWith('hooks.json'))), JSON.stringify(result.files)).toBe(true);
      for (const f of result.files) if (f.action === 'changed') expect(fs.existsSync(f.backup!)).toBe(true);
    }
    // Claude Code: mcpServers.reverie with the token, nothing else changed.
    const claude = parseJsonc(read(files.claudeJson!)) as Loose;
    expect(withoutKey(claude, ['mcpServers', 'reverie'])).toEqual(JSON.parse(before.claudeJson!));
    const token = String(claude.mcpServers.reverie.env.REVERIE_AGENT_TOKEN);
    expect(token).toMatch(/^rvr_/);
    expect(claude.mcpServers.reverie.args).toEqual(expect.arrayContaining(['mcp', '--workspace', ws.root]));
    // Its hooks: appended after the person's own, which stay, comment included.
    const settingsText = read(files.claudeSettings!);
    expect(settingsText).toContain("// The person's own settings, with a comment Claude Code tolerates.");
    const settings = parseJsonc(settingsText) as Loose;
    expect(settings.hooks.SessionStart[0]).toEqual({ matcher: 'startup', hooks: [{ type: 'command', command: 'echo hello' }] });
    expect(settings.hooks.SessionStart[1].hooks[0].command).toMatch(/ hook SessionStart --tool claude-code --workspace /);
    expect(Object.keys(settings.hooks)).toEqual(['SessionStart', 'UserPromptSubmit', 'PreCompact', 'SessionEnd']);
    // Codex: the TOML table, the hooks flag under the existing [features], the rest byte for byte.
    const codexText = read(files.codexConfig!);
    expect(codexText.startsWith(before.codexConfig!.split('[features]')[0]!)).toBe(true);
    expect(codexText).toContain('[features]\nhooks = true\nweb_search = true');
    const codex = parseToml(codexText) as Loose;
    expect(codex.mcp_servers.docs).toEqual({ command: 'docs-mcp', args: ['--stdio'] });
    expect(codex.mcp_servers.reverie.env.REVERIE_AGENT_TOKEN).toMatch(/^rvr_/);
    expect(codex.projects['/home/ada/src/ledgerd']).toEqual({ trust_level: 'trusted' });
    expect(JSON.parse(read(path.join(home, '.codex', 'hooks.json'))).hooks.UserPromptSubmit[0].hooks[0].command).toMatch(/ hook UserPromptSubmit --tool codex /);
    // Hermes and OpenClaw: their MCP server settings.
    const hermes = parseYaml(read(files.hermesConfig!)) as Loose;
    expect(Object.keys(hermes.mcp_servers)).toEqual(['reverie', 'filesystem']);
    expect(hermes.terminal).toEqual({ backend: 'local' });
    expect(read(files.hermesConfig!)).toContain('# Hermes agent');
    const openclaw = JSON.parse(read(files.openclaw!)) as Loose;
    expect(Object.keys(openclaw.mcp.servers)).toEqual(['context7', 'reverie']);

    // A second connect: every file unchanged, byte for byte, and the same token.
    const snapshot = Object.fromEntries(Object.entries(files).map(([k, f]) => [k, read(f)]));
    for (const tool of ['claude-code', 'codex', 'hermes', 'openclaw'] as const) {
      const again = await service!.invoke('agents.connect', { tool });
      expect(again.files.map((f) => f.action)).toEqual(again.files.map(() => 'unchanged'));
    }
    for (const [k, f] of Object.entries(files)) expect(read(f)).toBe(snapshot[k]);
    const { agents } = await service!.invoke('agents.list', {});
    expect(agents.filter((a) => a.revokedAt === null).map((a) => a.name).sort()).toEqual(['claude-code', 'codex', 'hermes', 'openclaw']);
  });

  it('prints the diff with --dry-run and changes nothing, makes no token', async () => {
    const files = fakeHome();
    const before = read(files.codexConfig!);
    const dry = await service!.invoke('agents.connect', { tool: 'codex', dryRun: true });
    expect(dry.files[0]!.diff).toMatch(/^\+\[mcp_servers\.reverie\]$/m);
    expect(dry.files[0]!.diff).toMatch(/^\+hooks = true$/m);
    expect(dry.files[1]!.action).toBe('created');
    expect(read(files.codexConfig!)).toBe(before);
    expect(fs.existsSync(path.join(home, '.codex', 'hooks.json'))).toBe(false);
    expect((await service!.invoke('agents.list', {})).agents).toEqual([]);
  });

  it('disconnect restores the exact earlier bytes when the file is unchanged since connect, and removes only its entries when the person edited it', async () => {
    const files = fakeHome();
    const before = { claude: read(files.claudeJson!), settings: read(files.claudeSettings!), openclaw: read(files.openclaw!) };
    await service!.invoke('agents.connect', { tool: 'claude-code' });
    await service!.invoke('agents.connect', { tool: 'openclaw' });
    // The person edits OpenClaw's file after connecting.
    const edited = read(files.openclaw!).replace('"workspace": "~/.openclaw/workspace"', '"workspace": "~/notes"');
    fs.writeFileSync(files.openclaw!, edited);

    const claude = await service!.invoke('agents.disconnect', { tool: 'claude-code' });
    expect(claude.files.map((f) => f.action)).toEqual(['restored', 'restored']);
    expect(claude.revoked).toBe(true);
    expect(read(files.claudeJson!)).toBe(before.claude);
    expect(read(files.claudeSettings!)).toBe(before.settings);

    const openclaw = await service!.invoke('agents.disconnect', { tool: 'openclaw' });
    expect(openclaw.files.map((f) => f.action)).toEqual(['removed']);
    const after = JSON.parse(read(files.openclaw!)) as Loose;
    expect(after.agents.defaults.workspace).toBe('~/notes');
    expect(Object.keys(after.mcp.servers)).toEqual(['context7']);
  });

  it('refuses a config that is not valid JSON or TOML, naming the file and line; nothing changes, no token is made', async () => {
    const files = fakeHome();
    fs.writeFileSync(files.claudeJson!, '{\n  "theme": "dark",\n  "mcpServers": {,\n}\n');
    await expect(service!.invoke('agents.connect', { tool: 'claude-code' })).rejects.toThrow(new RegExp(`${files.claudeJson!.replace(/[.]/g, '\\.')} line 3: is not valid JSON`));
    fs.writeFileSync(files.codexConfig!, 'model = "x"\n[features\nhooks = true\n');
    await expect(service!.invoke('agents.connect', { tool: 'codex' })).rejects.toThrow(/config\.toml line 2: is not valid TOML/);
    expect(read(files.codexConfig!)).toBe('model = "x"\n[features\nhooks = true\n');
    expect(read(files.claudeSettings!)).toBe(fs.readFileSync(path.join(FIXTURES, 'claude-settings.json'), 'utf8'));
    expect(fs.existsSync(path.join(home, '.codex', 'hooks.json'))).toBe(false);
    expect((await service!.invoke('agents.list', {})).agents).toEqual([]);
  });

  it('refuses a read-only config file and leaves every file as it was', async () => {
    const files = fakeHome();
    fs.chmodSync(files.claudeSettings!, 0o444);
    await expect(service!.invoke('agents.connect', { tool: 'claude-code' })).rejects.toThrow(/settings\.json: is read-only/);
    expect(read(files.claudeJson!)).toBe(fs.readFileSync(path.join(FIXTURES, 'claude.json'), 'utf8'));
  });

  it('writes .mcp.json in the project with --scope project and prints a dry-run diff from the CLI', async () => {
    fakeHome();
    const project = path.join(ws.dataDir, 'repo');
    fs.mkdirSync(project);
    const result = await service!.invoke('agents.connect', { tool: 'claude-code', scope: 'project', projectDir: project });
    expect(result.files[0]!.path).toBe(path.join(project, '.mcp.json'));
    expect(JSON.parse(read(path.join(project, '.mcp.json'))).mcpServers.reverie.command).toBe(process.execPath);
    await service!.close();
    service = null;
    const cli = await runCli(['agents', 'connect', 'hermes', '--dry-run', '--workspace', ws.root], cliEnv(ws.dataDir, { HOME: home }));
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(/config\.yaml: would be changed\n/);
    expect(cli.stdout).toMatch(/^\+ {2}reverie:$/m);
    expect(cli.stdout).toContain('Dry run: nothing was changed.');
  }, 60_000);
});
