import os from 'node:os';
import path from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { operations } from '../src/contract/index.js';
import { defineCommand, flagName, GLOBAL_FLAGS, readFlags, type CliCommand } from '../src/cli/command.js';
import { parseCommandLine } from '../src/cli/commandLine.js';
import { createContext } from '../src/cli/context.js';
import { formatCommandHelp, formatUsage } from '../src/cli/help.js';
import { COMMANDS } from '../src/cli/main.js';
import { ReverieError } from '../src/platform/errors.js';

const FLAGS = {
  limit: { type: 'number', integer: true, min: 1, max: 100, default: 10, description: 'how many results' },
  minScore: { type: 'number', min: 0, max: 1, description: 'lowest score' },
  role: { type: 'string', choices: ['embedding', 'chat'], description: 'the role' },
  from: { type: 'string', value: 'DIR', description: 'a folder' },
  source: { type: 'multiple', value: 'KIND', description: 'where' },
  dryRun: { type: 'boolean', description: 'change nothing' },
} as const;

/** A command that records what it was given instead of doing anything. */
function recorder(): { command: CliCommand; calls: unknown[] } {
  const calls: unknown[] = [];
  const command = defineCommand({
    name: 'probe',
    summary: 'A probe.',
    usage: ['probe <thing> [--limit N]', { line: 'probe other [--dry-run]', summary: 'The other form.' }],
    flags: FLAGS,
    async run(_ctx, flags) {
      expectTypeOf(flags.limit).toEqualTypeOf<number>();
      expectTypeOf(flags.minScore).toEqualTypeOf<number | undefined>();
      expectTypeOf(flags.role).toEqualTypeOf<'embedding' | 'chat' | undefined>();
      expectTypeOf(flags.from).toEqualTypeOf<string | undefined>();
      expectTypeOf(flags.source).toEqualTypeOf<string[]>();
      expectTypeOf(flags.dryRun).toEqualTypeOf<boolean>();
      calls.push(flags);
      return 0;
    },
  });
  return { command, calls };
}

function rejection(run: () => unknown): ReverieError {
  try {
    run();
  } catch (error) {
    if (error instanceof ReverieError) return error;
    throw error;
  }
  throw new Error('expected a ReverieError');
}

describe('reading flags through a command table', () => {
  it('fills defaults and converts each type', () => {
    expect(readFlags(FLAGS, {})).toEqual({ limit: 10, minScore: undefined, role: undefined, from: undefined, source: [], dryRun: false });
    expect(readFlags(FLAGS, { limit: '3', 'min-score': '0.5', role: 'chat', from: '/tmp/x', source: ['memory', 'dreams, sessions'], 'dry-run': true })).toEqual({
      limit: 3,
      minScore: 0.5,
      role: 'chat',
      from: '/tmp/x',
      source: ['memory', 'dreams', 'sessions'],
      dryRun: true,
    });
  });

  it('names the flag and its range for a bad number', () => {
    for (const bad of ['lots', '0', '101', '2.5', '', ' ']) {
      const error = rejection(() => readFlags(FLAGS, { limit: bad }));
      expect(error.code).toBe('invalid-input');
      expect(error.message).toBe(`--limit must be a whole number from 1 to 100 (got "${bad}").`);
    }
    expect(rejection(() => readFlags(FLAGS, { 'min-score': '1.5' })).message).toBe('--min-score must be a number from 0 to 1 (got "1.5").');
    expect(readFlags(FLAGS, { 'min-score': '1' }).minScore).toBe(1);
  });

  it('refuses a value outside the choices', () => {
    expect(rejection(() => readFlags(FLAGS, { role: 'boss' })).message).toBe('--role must be embedding or chat (got "boss").');
  });

  it('maps camelCase keys to kebab-case flags and refuses tables that would clash', () => {
    expect(flagName('minUniqueQueries')).toBe('min-unique-queries');
    const define = (flags: Record<string, { type: 'boolean'; description: string }>) => () => defineCommand({ name: 'x', summary: 'x', usage: ['x'], flags, run: async () => 0 });
    expect(define({ json: { type: 'boolean', description: 'again' } })).toThrow(/--json is a global flag/);
    expect(define({ 'dry-run': { type: 'boolean', description: 'kebab' } })).toThrow(/must be camelCase/);
  });
});

describe('the command line', () => {
  it('finds the command and its positionals, with global flags anywhere', () => {
    const { command } = recorder();
    const line = parseCommandLine(['--json', 'probe', 'a', '--limit', '5', 'b', '--workspace', '/w', '--data-dir', '/d'], [command]);
    expect(line).toMatchObject({ kind: 'run', command, positionals: ['a', 'b'], global: { workspace: '/w', dataDir: '/d', json: true } });
    if (line.kind !== 'run') throw new Error(line.kind);
    expect(readFlags(FLAGS, line.flags)).toMatchObject({ limit: 5, dryRun: false });
  });

  it("runs the command with its table's flags converted, or fails naming the flag", async () => {
    const { command, calls } = recorder();
    const line = parseCommandLine(['probe', '--source', 'a,b', '--dry-run'], [command]);
    if (line.kind !== 'run') throw new Error(line.kind);
    // The probe never touches its context (nor this data folder); the flags are what is under test.
    const ctx = createContext({ ...line.global, dataDir: path.join(os.tmpdir(), 'reverie-probe-unused') }, line.positionals, formatUsage(command));
    await command.run(ctx, line.flags);
    expect(calls).toEqual([expect.objectContaining({ limit: 10, source: ['a', 'b'], dryRun: true })]);
    await expect(command.run(ctx, { limit: 'many' })).rejects.toThrow('--limit must be a whole number from 1 to 100 (got "many").');
  });

  it('fails on an unknown flag with the flag and the command usage', () => {
    const { command } = recorder();
    const line = parseCommandLine(['probe', 'x', '--hops', '2'], [command]);
    expect(line.kind).toBe('fail');
    if (line.kind !== 'fail') return;
    expect(line.text).toContain('reverie probe: unknown option --hops.');
    expect(line.text).toContain('Usage: reverie probe <thing> [--limit N]\n       reverie probe other [--dry-run]');
    // Another command's flag is unknown here too, and a command flag before the command name.
    const before = parseCommandLine(['--limit', '3', 'probe'], [command]);
    expect(before).toMatchObject({ kind: 'fail', text: expect.stringContaining('Unknown option --limit before the command') });
    expect(parseCommandLine(['probe', '--limit'], [command])).toMatchObject({ kind: 'fail', text: expect.stringContaining("--limit <value>' argument missing") });
  });

  it('prints help for a command both ways, the global usage, the version, and fails on no or unknown commands', () => {
    const { command } = recorder();
    const help = parseCommandLine(['probe', '--help'], [command]);
    expect(help).toEqual({ kind: 'help', text: formatCommandHelp(command, GLOBAL_FLAGS) });
    expect(parseCommandLine(['help', 'probe'], [command])).toEqual(help);
    expect(parseCommandLine(['probe', '-h', '--limit', 'lots'], [command])).toEqual(help);
    if (help.kind !== 'help') return;
    expect(help.text).toContain('reverie probe: A probe.');
    expect(help.text).toContain('  reverie probe other [--dry-run]\n      The other form.');
    expect(help.text).toMatch(/--limit N +how many results \(1–100, default 10\)/);
    expect(help.text).toMatch(/--role embedding\|chat +the role/);
    expect(help.text).toMatch(/--source KIND +where \(repeatable, or comma-separated\)/);
    expect(help.text).toMatch(/--dry-run +change nothing/);
    expect(help.text).toMatch(/--workspace DIR +workspace folder/);

    for (const argv of [['--help'], ['help'], ['-h']]) expect(parseCommandLine(argv, [command])).toMatchObject({ kind: 'help', text: expect.stringMatching(/^Usage: reverie <command>[\s\S]*\n {2}probe +A probe\.\n/) });
    expect(parseCommandLine(['--version'], [command])).toEqual({ kind: 'version' });
    expect(parseCommandLine([], [command])).toMatchObject({ kind: 'fail', text: expect.stringContaining('No command given.') });
    expect(parseCommandLine(['frobnicate'], [command])).toMatchObject({ kind: 'fail', text: expect.stringContaining('Unknown command "frobnicate".') });
    expect(parseCommandLine(['help', 'frobnicate'], [command])).toMatchObject({ kind: 'fail', text: expect.stringContaining('Unknown command "frobnicate".') });
  });
});

describe("Reverie's commands", () => {
  it('each has a name, a summary, usage that starts with its name, and help listing every flag', () => {
    expect(new Set(COMMANDS.map((c) => c.name)).size).toBe(COMMANDS.length);
    for (const c of COMMANDS) {
      expect(c.summary, c.name).toMatch(/\.$/);
      expect(c.usage.length, c.name).toBeGreaterThan(0);
      for (const u of c.usage) expect(u.line.startsWith(c.name), u.line).toBe(true);
      const help = formatCommandHelp(c, GLOBAL_FLAGS);
      for (const key of Object.keys(c.flags)) expect(help, `${c.name} --${flagName(key)}`).toContain(`--${flagName(key)}`);
      expect(formatUsage(c)).toMatch(new RegExp(`^Usage: reverie ${c.name}`));
    }
  });

  it("take the contract's operation summaries where a command is one operation", () => {
    const byName = new Map(COMMANDS.map((c) => [c.name, c]));
    expect(byName.get('search')!.summary).toBe(operations['memory.search'].summary);
    expect(byName.get('forget')!.summary).toBe(operations.forget.summary);
    expect(byName.get('why')!.summary).toBe(operations['provenance.get'].summary);
    expect(formatCommandHelp(byName.get('graph')!, GLOBAL_FLAGS)).toContain(operations['graph.neighbors'].summary);
  });

  it('keep the range checks the commands had', () => {
    const flagsOf = (name: string) => COMMANDS.find((c) => c.name === name)!.flags;
    expect(rejection(() => readFlags(flagsOf('search'), { limit: 'lots' })).message).toBe('--limit must be a whole number from 1 to 100 (got "lots").');
    expect(rejection(() => readFlags(flagsOf('agents'), { limit: '2001' })).message).toBe('--limit must be a whole number from 1 to 2000 (got "2001").');
    expect(rejection(() => readFlags(flagsOf('graph'), { hops: '9' })).message).toBe('--hops must be a whole number from 1 to 3 (got "9").');
    expect(rejection(() => readFlags(flagsOf('dream'), { 'min-recall-count': '2.5' })).message).toBe('--min-recall-count must be a whole number from 0 to 1000 (got "2.5").');
    expect(rejection(() => readFlags(flagsOf('models'), { role: 'boss' })).message).toBe('--role must be embedding or chat (got "boss").');
    expect(readFlags(flagsOf('serve'), {})).toEqual({ port: 0, open: false, demo: false });
  });
});
