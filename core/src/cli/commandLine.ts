/**
 * From argv to what `main` does: run a command with its flags, print help or the version, or
 * fail with a message. Pure (no I/O), so the parsing rules are tested without a process.
 */
import { parseArgs } from 'node:util';
import { GLOBAL_FLAGS, parseArgsOptions, type CliCommand, type RawFlagValues } from './command.js';
import type { GlobalFlags } from './context.js';
import { formatCommandHelp, formatGlobalUsage, formatUsage } from './help.js';

export type CommandLine =
  | { kind: 'run'; command: CliCommand; positionals: string[]; global: GlobalFlags; flags: RawFlagValues }
  /** Help asked for: print `text` on stdout, exit 0. */
  | { kind: 'help'; text: string }
  | { kind: 'version' }
  /** Print `text` on stderr, exit 1. */
  | { kind: 'fail'; text: string };

const GLOBAL_OPTIONS = parseArgsOptions(GLOBAL_FLAGS);

export function parseCommandLine(argv: readonly string[], commands: readonly CliCommand[]): CommandLine {
  const usage = formatGlobalUsage(commands, GLOBAL_FLAGS);
  // First pass: only the global flags are known, to find the command name.
  const { values: early, tokens } = parseArgs({ args: [...argv], options: GLOBAL_OPTIONS, strict: false, allowPositionals: true, tokens: true });
  const first = tokens.findIndex((t) => t.kind === 'positional' || t.kind === 'option-terminator');
  const beforeCommand = first === -1 ? tokens : tokens.slice(0, first);
  const stray = beforeCommand.find((t) => t.kind === 'option' && !Object.hasOwn(GLOBAL_OPTIONS, t.name));
  if (stray?.kind === 'option') return { kind: 'fail', text: `Unknown option ${stray.rawName} before the command (a command's options go after its name).\n\n${usage}` };
  if (early.version === true) return { kind: 'version' };
  const name = tokens.find((t) => t.kind === 'positional')?.value;
  if (name === undefined) return early.help === true ? { kind: 'help', text: usage } : { kind: 'fail', text: `No command given.\n\n${usage}` };
  if (name === 'help') return helpFor(tokens.filter((t) => t.kind === 'positional')[1]?.value, commands, usage);
  const command = commands.find((c) => c.name === name);
  if (!command) return { kind: 'fail', text: `Unknown command "${name}".\n\n${usage}` };

  // Second pass: the global flags and this command's.
  const options = { ...GLOBAL_OPTIONS, ...parseArgsOptions(command.flags) };
  const unknown = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true }).tokens.find((t) => t.kind === 'option' && !Object.hasOwn(options, t.name));
  if (unknown?.kind === 'option') return { kind: 'fail', text: `reverie ${command.name}: unknown option ${unknown.rawName}.\n\n${commandUsage(command)}` };
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: true });
  } catch (error) {
    return { kind: 'fail', text: `reverie ${command.name}: ${(error as Error).message}\n\n${commandUsage(command)}` };
  }
  const { values, positionals } = parsed;
  if (values.help === true) return { kind: 'help', text: formatCommandHelp(command, GLOBAL_FLAGS) };
  const global: GlobalFlags = {
    workspace: typeof values.workspace === 'string' ? values.workspace : undefined,
    dataDir: typeof values['data-dir'] === 'string' ? values['data-dir'] : undefined,
    json: values.json === true,
  };
  return { kind: 'run', command, positionals: positionals.slice(1), global, flags: values };
}

function helpFor(name: string | undefined, commands: readonly CliCommand[], usage: string): CommandLine {
  if (name === undefined) return { kind: 'help', text: usage };
  const command = commands.find((c) => c.name === name);
  return command ? { kind: 'help', text: formatCommandHelp(command, GLOBAL_FLAGS) } : { kind: 'fail', text: `Unknown command "${name}".\n\n${usage}` };
}

function commandUsage(command: CliCommand): string {
  return `${formatUsage(command)}\nRun \`reverie help ${command.name}\` for its options.\n`;
}
