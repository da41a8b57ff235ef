/**
 * A CLI command declared as one table: its name, a one-line summary, usage lines and flags.
 * `main` derives the argument parser, the global usage and per-command help from these
 * tables; the command's `run` receives its flags already checked and typed.
 */
import { ReverieError } from '../platform/errors.js';
import type { CliContext } from './context.js';

interface FlagBase {
  /** One line for help. */
  description: string;
  /** The value's placeholder in help (`DIR`, `N`); string, number and multiple flags only. */
  value?: string;
}
export interface StringFlag extends FlagBase {
  type: 'string';
  /** The only values allowed; the parsed flag is typed as their union. */
  choices?: readonly string[];
}
export interface BooleanFlag extends FlagBase {
  type: 'boolean';
  /** A one-letter alias (`-h`). */
  short?: string;
}
export interface NumberFlag extends FlagBase {
  type: 'number';
  integer?: boolean;
  min?: number;
  max?: number;
  default?: number;
}
/** A string flag that may be given several times or comma-separated (`--source a --source b,c`): a list of trimmed items. */
export interface MultipleFlag extends FlagBase {
  type: 'multiple';
}
export type FlagSpec = StringFlag | BooleanFlag | NumberFlag | MultipleFlag;
/** Keys are camelCase; the flag on the command line is kebab-case (`dryRun` is `--dry-run`). */
export type FlagTable = Record<string, FlagSpec>;

export type FlagValue<F extends FlagSpec> = F extends BooleanFlag
  ? boolean
  : F extends NumberFlag
    ? F extends { default: number }
      ? number
      : number | undefined
    : F extends MultipleFlag
      ? string[]
      : F extends { choices: readonly (infer C)[] }
        ? C | undefined
        : string | undefined;
export type FlagValues<T extends FlagTable> = { [K in keyof T]: FlagValue<T[K]> };

/** What `node:util` parseArgs returns for a flag: strings for string-typed options. */
export type RawFlagValues = Record<string, string | boolean | Array<string | boolean> | undefined>;

export interface UsageLine {
  /** Without the leading `reverie `, e.g. `graph search <text> [--limit N] [--json]`. */
  line: string;
  /** What this form does (often the summary of the contract operation it calls). */
  summary?: string;
}

export interface CommandSpec<F extends FlagTable> {
  name: string;
  summary: string;
  usage: ReadonlyArray<string | UsageLine>;
  flags: F;
  run(ctx: CliContext, flags: FlagValues<F>): Promise<number>;
}

/** A command with its flag types erased: what the command list and the help formatter hold. */
export interface CliCommand {
  readonly name: string;
  readonly summary: string;
  readonly usage: readonly UsageLine[];
  readonly flags: FlagTable;
  /** Checks and converts the parsed flags (a clear error naming a bad one), then runs. */
  run(ctx: CliContext, raw: RawFlagValues): Promise<number>;
}

/** Flags every command accepts; `main` reads them, commands see them on their context. */
export const GLOBAL_FLAGS = {
  workspace: { type: 'string', value: 'DIR', description: 'workspace folder (env REVERIE_WORKSPACE; default: the one chosen at first run)' },
  dataDir: { type: 'string', value: 'DIR', description: 'app data folder (env REVERIE_DATA_DIR; default: ~/.config/Reverie on Linux)' },
  json: { type: 'boolean', description: 'print exactly one JSON value on stdout' },
  help: { type: 'boolean', short: 'h', description: 'show help (for a command: `reverie <command> --help`)' },
  version: { type: 'boolean', description: "print Reverie's version" },
} as const satisfies FlagTable;

export function defineCommand<const F extends FlagTable>(spec: CommandSpec<F>): CliCommand {
  for (const key of Object.keys(spec.flags)) {
    if (!/^[a-z][a-zA-Z0-9]*$/.test(key)) throw new Error(`Command ${spec.name}: flag key "${key}" must be camelCase.`);
    if (Object.hasOwn(GLOBAL_FLAGS, key)) throw new Error(`Command ${spec.name}: --${flagName(key)} is a global flag; a command cannot declare it again.`);
  }
  return {
    name: spec.name,
    summary: spec.summary,
    usage: spec.usage.map((u) => (typeof u === 'string' ? { line: u } : u)),
    flags: spec.flags,
    run: async (ctx, raw) => spec.run(ctx, readFlags(spec.flags, raw)),
  };
}

/** `dryRun` → `dry-run`. */
export function flagName(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

export type ParseArgsOptions = Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }>;

/** The `parseArgs` options for a flag table, keyed by the command-line name. */
export function parseArgsOptions(table: FlagTable): ParseArgsOptions {
  const options: ParseArgsOptions = {};
  for (const [key, spec] of Object.entries(table)) {
    if (spec.type === 'boolean') options[flagName(key)] = spec.short ? { type: 'boolean', short: spec.short } : { type: 'boolean' };
    else options[flagName(key)] = spec.type === 'multiple' ? { type: 'string', multiple: true } : { type: 'string' };
  }
  return options;
}

/** Converts what parseArgs read into the table's types; throws `invalid-input` naming the flag. */
export function readFlags<const F extends FlagTable>(table: F, raw: RawFlagValues): FlagValues<F> {
  const values: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(table)) {
    const name = flagName(key);
    const given = raw[name];
    if (spec.type === 'boolean') values[key] = given === true;
    else if (spec.type === 'multiple') values[key] = (Array.isArray(given) ? given : given === undefined ? [] : [given]).flatMap((v) => String(v).split(',')).map((v) => v.trim());
    else if (typeof given !== 'string') values[key] = spec.type === 'number' ? spec.default : undefined;
    else if (spec.type === 'number') values[key] = readNumber(name, spec, given);
    else values[key] = readString(name, spec, given);
  }
  // Built key by key from the same table FlagValues<F> maps over.
  return values as FlagValues<F>;
}

function readString(name: string, spec: StringFlag, given: string): string {
  if (spec.choices && !spec.choices.includes(given)) throw new ReverieError('invalid-input', `--${name} must be ${spec.choices.join(' or ')} (got "${given}").`);
  return given;
}

function readNumber(name: string, spec: NumberFlag, given: string): number {
  const n = given.trim() === '' ? Number.NaN : Number(given);
  if (!Number.isFinite(n) || (spec.integer && !Number.isInteger(n)) || (spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max)) {
    throw numberError(name, spec, given);
  }
  return n;
}

/** `--limit must be a whole number from 1 to 100 (got "lots").` Commands with a narrower range per form reuse it. */
export function numberError(name: string, spec: Pick<NumberFlag, 'integer' | 'min' | 'max'>, given: string | number): ReverieError {
  const kind = spec.integer ? 'a whole number' : 'a number';
  const { min, max } = spec;
  const range = min !== undefined && max !== undefined ? ` from ${min} to ${max}` : min !== undefined ? ` of at least ${min}` : max !== undefined ? ` of at most ${max}` : '';
  return new ReverieError('invalid-input', `--${name} must be ${kind}${range} (got "${given}").`);
}
