import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { SearchResult, SourceKind } from '../../contract/index.js';
import { formatMemoryLines } from '../commands/getOutput.js';
import { printResults } from '../commands/searchOutput.js';
import { formatStatus } from '../commands/statusOutput.js';
import { printJson } from '../output.js';
import { locateWorkspace } from './fastContext.js';
import { invokeOnHost } from './hostInvoke.js';
import { processLogger } from '../../platform/log/processLog.js';

const log = processLogger('cli/fast');

/** One-shot commands a running host answers without this process loading the engine. */
export const THIN_COMMANDS = ['search', 'status', 'get'] as const;

type Values = Record<string, string | boolean | string[] | undefined>;
type Options = NonNullable<ParseArgsConfig['options']>;

const GLOBAL: Options = { json: { type: 'boolean' }, workspace: { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' }, version: { type: 'boolean' } };

/**
 * `reverie search | status | get` with a host running: the host runs the operation (over its
 * socket, with the owner token) and this process prints what the full command would print.
 * Anything it does not handle plainly (no host, help, an unusual flag, a value out of range, an
 * error from the host) runs `fallback`, the full command, which loads the engine and says what is wrong.
 */
export async function runThinCommand(argv: readonly string[], fallback: () => Promise<number>): Promise<number> {
  const command = argv[0];
  const run = command === 'search' ? thinSearch : command === 'status' ? thinStatus : command === 'get' ? thinGet : null;
  if (!run) return fallback();
  const own: Options = command === 'search' ? { limit: { type: 'string' }, budget: { type: 'string' }, source: { type: 'string', multiple: true }, graph: { type: 'boolean' } } : command === 'get' ? { from: { type: 'string' }, lines: { type: 'string' } } : {};
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv.slice(1) as string[], options: { ...GLOBAL, ...own }, strict: true, allowPositionals: true }) as typeof parsed;
  } catch (error) {
    log.debug('an argument the thin path does not take: the full command words it', { error });
    return fallback();
  }
  const { values, positionals } = parsed;
  if (values.help || values.version) return fallback();
  const { dataDir, workspaceRoot } = locateWorkspace(typeof values['data-dir'] === 'string' ? values['data-dir'] : undefined, typeof values.workspace === 'string' ? values.workspace : undefined);
  if (!workspaceRoot) return fallback();
  const printed = await run({ dataDir, workspaceRoot, values, text: positionals.join(' ').trim(), json: values.json === true });
  return printed ? 0 : fallback();
}

interface ThinCall {
  dataDir: string;
  workspaceRoot: string;
  values: Values;
  text: string;
  json: boolean;
}

async function thinSearch({ dataDir, workspaceRoot, values, text, json }: ThinCall): Promise<boolean> {
  const limit = wholeNumber(values.limit, 10, 100);
  const budget = values.budget === undefined ? undefined : wholeNumber(values.budget, 0, 100_000);
  // --graph prints entities with the graph command's formatting: left to the full command.
  if (!text || limit === null || budget === null || values.graph) return false;
  // Checked by the host against the contract; a source it refuses sends the command to the full path, which names it.
  // Without --source the host's contract default applies, as in the full command.
  const sources = values.source as SourceKind[] | undefined;
  const answer = await invokeOnHost(dataDir, workspaceRoot, 'memory.search', { query: text, limit, graph: false, ...(sources ? { sources } : {}), ...(budget === undefined ? {} : { budget }) });
  if (!answer) return false;
  if (!isSearchResults(answer.results)) {
    log.debug("the host's search answer lacks a field the output prints (another version?): the full command runs");
    return false;
  }
  if (json) printJson(answer.results);
  else printResults(answer.results);
  return true;
}

async function thinStatus({ dataDir, workspaceRoot, text, json }: ThinCall): Promise<boolean> {
  if (text) return false;
  const status = await invokeOnHost(dataDir, workspaceRoot, 'status', {});
  if (!status) return false;
  if (json) printJson(status);
  else process.stdout.write(formatStatus(status));
  return true;
}

async function thinGet({ dataDir, workspaceRoot, values, text, json }: ThinCall): Promise<boolean> {
  const from = wholeNumber(values.from, 1, Number.MAX_SAFE_INTEGER);
  const lines = wholeNumber(values.lines, 200, 2000);
  if (!text || from === null || lines === null) return false;
  const got = await invokeOnHost(dataDir, workspaceRoot, 'memory.get', { path: text, from, lines });
  if (!got) return false;
  if (json) printJson(got);
  else process.stdout.write(formatMemoryLines(got));
  return true;
}

/** A plain whole number from 1 to `max`, the default when absent; null for anything else (the full command explains). */
function wholeNumber(given: unknown, fallback: number, max: number): number | null {
  if (given === undefined) return fallback;
  if (typeof given !== 'string' || !/^[1-9]\d*$/.test(given)) return null;
  const n = Number(given);
  return n <= max ? n : null;
}

/**
 * The fields printResults reads, checked without the contract's zod tree (not loaded on this path): a
 * host of another Reverie version sends the command to the full path instead of printing a broken list.
 */
function isSearchResults(value: unknown): value is SearchResult[] {
  const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const isLines = (v: unknown) => isRecord(v) && Number.isInteger(v.startLine) && Number.isInteger(v.endLine);
  const isPlace = (v: unknown) => isLines(v) && typeof (v as Record<string, unknown>).path === 'string';
  const isResult = (r: unknown) =>
    isRecord(r) &&
    isPlace(r) &&
    typeof r.score === 'number' &&
    typeof r.source === 'string' &&
    typeof r.snippet === 'string' &&
    (r.entryKinds === undefined || (Array.isArray(r.entryKinds) && r.entryKinds.every((k) => isRecord(k) && typeof k.kind === 'string'))) &&
    (r.alsoIn === undefined || (Array.isArray(r.alsoIn) && r.alsoIn.every(isPlace)));
  return Array.isArray(value) && value.every(isResult);
}
