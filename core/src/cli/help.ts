/** Usage and help text, derived from the commands' tables (nothing here is written by hand per command). */
import { flagName, type CliCommand, type FlagSpec, type FlagTable } from './command.js';

/** `Usage: reverie a …` then one indented line per further form: what a command's usage errors print. */
export function formatUsage(command: CliCommand): string {
  return command.usage.map((u, i) => `${i === 0 ? 'Usage: ' : '       '}reverie ${u.line}`).join('\n');
}

/** `reverie <command> --help` and `reverie help <command>`. */
export function formatCommandHelp(command: CliCommand, globalFlags: FlagTable): string {
  const lines = [`reverie ${command.name}: ${command.summary}`, '', 'Usage:'];
  for (const u of command.usage) {
    lines.push(`  reverie ${u.line}`);
    if (u.summary) lines.push(`      ${u.summary}`);
  }
  if (Object.keys(command.flags).length > 0) lines.push('', 'Options:', ...flagLines(command.flags));
  lines.push('', 'Global options:', ...flagLines(globalFlags));
  return lines.join('\n') + '\n';
}

/** `reverie --help`: every command with its summary, then the global options. */
export function formatGlobalUsage(commands: readonly CliCommand[], globalFlags: FlagTable): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return [
    'Usage: reverie <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'Run `reverie help <command>` (or `reverie <command> --help`) for its usage and options.',
    '',
    'Global options:',
    ...flagLines(globalFlags),
  ].join('\n') + '\n';
}

function flagLines(table: FlagTable): string[] {
  const heads = Object.entries(table).map(([key, spec]) => flagHead(key, spec));
  const width = Math.max(...heads.map((h) => h.length)) + 3;
  return Object.values(table).map((spec, i) => `  ${heads[i]!.padEnd(width)}${spec.description}${flagNote(spec)}`);
}

function flagHead(key: string, spec: FlagSpec): string {
  if (spec.type === 'boolean') return `--${flagName(key)}${spec.short ? `, -${spec.short}` : ''}`;
  const value = spec.value ?? (spec.type === 'number' ? 'N' : spec.type === 'string' && spec.choices ? spec.choices.join('|') : 'VALUE');
  return `--${flagName(key)} ${value}`;
}

function flagNote(spec: FlagSpec): string {
  const notes: string[] = [];
  if (spec.type === 'number') {
    if (spec.min !== undefined && spec.max !== undefined) notes.push(`${spec.min}–${spec.max}`);
    if (spec.default !== undefined) notes.push(`default ${spec.default}`);
  }
  if (spec.type === 'multiple') notes.push('repeatable, or comma-separated');
  return notes.length > 0 ? ` (${notes.join(', ')})` : '';
}
