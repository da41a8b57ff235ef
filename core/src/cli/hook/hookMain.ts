import { UNTRUSTED_MEMORY_NOTICE } from '../../agents/framing.js';
import { projectKeyOf } from '../../agents/project/projectKey.js';
import { readFastContext } from '../fast/fastContext.js';
import { connectToHost, type HostSession } from './hostHook.js';
import { contextAnswer, PRE_COMPACT_TEXT, promptText, sessionStartText } from './hookAnswer.js';
import { parseHookInput, readHookStdin, type HookInput } from './hookInput.js';
import { processLogger } from '../../platform/log/processLog.js';

const log = processLogger('cli/hook');

export const HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreCompact', 'Stop', 'SessionEnd'] as const;
type HookEvent = (typeof HOOK_EVENTS)[number];

/** Everything a hook does finishes within this, or it prints nothing (REVERIE_HOOK_TIMEOUT_MS overrides it). */
const DEFAULT_DEADLINE_MS = 1400;
/** Characters of curated memory a session starts with (context_bootstrap's budget). */
const SESSION_BUDGET = 8000;
/** context.match reads at most this much of a prompt. */
const MAX_PROMPT_CHARS = 20_000;

/**
 * `reverie hook <event>`: reads the tool's hook JSON on stdin and answers in its format. It
 * never blocks or breaks the agent: on any error, bad input or at its deadline it prints
 * nothing, exits 0 and says why in Reverie's log. With a host running it only talks to the host's
 * socket; without one it reads the workspace directly (no engine).
 */
export async function runHook(argv: readonly string[], io: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream } = { stdin: process.stdin, stdout: process.stdout }): Promise<number> {
  // Date.now, not performance.now: the global `performance` loads perf_hooks (~2 ms of CPU per hook).
  const started = Date.now();
  const ctx = readFastContext(argv);
  const event = normaliseEvent(ctx.positionals[0]);
  const deadlineMs = Number(process.env.REVERIE_HOOK_TIMEOUT_MS) || DEFAULT_DEADLINE_MS;
  const left = () => Math.max(1, deadlineMs - (Date.now() - started));
  let why: string | null = null;
  let answer = '';
  try {
    if (!event) why = `unknown hook event "${ctx.positionals[0] ?? ''}" (expected ${HOOK_EVENTS.join(', ')})`;
    else if (!ctx.workspaceRoot) why = 'no workspace (pass --workspace DIR)';
    else if (!ctx.token) why = 'no agent token (REVERIE_AGENT_TOKEN, --token, or `reverie agents connect` for --tool)';
    else {
      const where: Where = { dataDir: ctx.dataDir, workspaceRoot: ctx.workspaceRoot, token: ctx.token, project: typeof ctx.flags.project === 'string' ? ctx.flags.project : null };
      // The host is reached and authenticated while stdin is still being read: its round trip is off the hook's critical path.
      const hostReady = reachHost(where, left);
      const read = await readHookStdin(io.stdin, Math.min(1000, left()));
      const parsed = read.why ? { input: null, why: read.why } : parseHookInput(read.text);
      if (!parsed.input) {
        why = parsed.why;
        void hostReady.then(({ host }) => host?.close());
      } else {
        const outcome = await withDeadline(answerEvent(event, parsed.input, where, hostReady, left), left());
        if (outcome === 'timeout') why = `no answer within ${deadlineMs} ms`;
        else ({ answer, why } = outcome);
      }
    }
  } catch (error) {
    why = (error as Error)?.message ?? String(error);
  }
  if (answer) await new Promise<void>((resolve) => io.stdout.write(answer, () => resolve()));
  if (why) await logHookProblem(ctx.dataDir, event ?? String(ctx.positionals[0]), why);
  return 0;
}

interface Where {
  dataDir: string;
  workspaceRoot: string;
  token: string;
  project: string | null;
}

/** The host's session (null: no host serves this workspace), or why it could not be had; never rejects. */
type HostReady = Promise<{ host: HostSession | null; error: unknown }>;

function reachHost(where: Where, left: () => number): HostReady {
  // Connecting is quick when a host listens; a host that accepted may answer slowly on a loaded machine, so it gets the rest of the deadline.
  return connectToHost(where.dataDir, where.workspaceRoot, where.token, Math.min(300, left()), left).then(
    (host) => ({ host, error: null }),
    (error: unknown) => ({ host: null, error }),
  );
}

async function answerEvent(event: HookEvent, input: HookInput, where: Where, hostReady: HostReady, left: () => number): Promise<{ answer: string; why: string | null }> {
  // An explicit project wins; else the repository the agent works in.
  const project = where.project ?? (input.cwd ? projectKeyOf(input.cwd) : null);
  const { host, error } = await hostReady;
  if (error) throw error;
  try {
    if (host) return await askHost(host, event, input, project, left);
    return await answerLocally(event, input, where, project);
  } finally {
    host?.close();
  }
}

async function askHost(host: HostSession, event: HookEvent, input: HookInput, project: string | null, left: () => number): Promise<{ answer: string; why: string | null }> {
  if (event === 'SessionStart') {
    const [context, armed] = await Promise.all([host.bootstrap(SESSION_BUDGET, project, left()), host.armedIntents(left())]);
    return { answer: contextAnswer('SessionStart', sessionStartText(context, armed, project)), why: null };
  }
  if (event === 'UserPromptSubmit') {
    if (!input.prompt) return { answer: '', why: null };
    const text = promptText(await host.match(input.prompt.slice(0, MAX_PROMPT_CHARS), project, left()), UNTRUSTED_MEMORY_NOTICE);
    return { answer: text ? contextAnswer('UserPromptSubmit', text) : '', why: null };
  }
  // PreCompact, Stop, SessionEnd: the transcript so far is ingested by the host, which goes on if the hook's time runs out.
  const answer = event === 'PreCompact' ? `${PRE_COMPACT_TEXT}\n` : '';
  if (!host.canWrite) return { answer, why: null };
  try {
    await host.ingest(left());
  } catch (error) {
    // The hook's time ran out first (the host goes on), or ingestion failed: said in the log, never to the agent.
    return { answer, why: `the transcript was not ingested yet (${(error as Error).message})` };
  }
  return { answer, why: null };
}

async function answerLocally(event: HookEvent, input: HookInput, where: Where, project: string | null): Promise<{ answer: string; why: string | null }> {
  if (event !== 'SessionStart' && event !== 'UserPromptSubmit') {
    // Ingesting needs the engine; the next sync (the app, `reverie serve`, `reverie index`) reads the transcript.
    return { answer: event === 'PreCompact' ? `${PRE_COMPACT_TEXT}\n` : '', why: null };
  }
  const { LocalHook } = await import('./localHook.js');
  const local = new LocalHook(where.dataDir, where.workspaceRoot, where.token);
  try {
    if (event === 'SessionStart') {
      const { context, armed } = local.bootstrap(SESSION_BUDGET, project);
      return { answer: contextAnswer('SessionStart', sessionStartText(context, armed, project)), why: null };
    }
    if (!input.prompt) return { answer: '', why: null };
    const text = promptText(local.match(input.prompt.slice(0, MAX_PROMPT_CHARS), project), UNTRUSTED_MEMORY_NOTICE);
    return { answer: text ? contextAnswer('UserPromptSubmit', text) : '', why: null };
  } finally {
    local.close();
  }
}

function normaliseEvent(word: string | undefined): HookEvent | null {
  if (!word) return null;
  const flat = word.replace(/[-_]/g, '').toLowerCase();
  return HOOK_EVENTS.find((e) => e.toLowerCase() === flat) ?? null;
}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T | 'timeout'> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve('timeout'), ms);
    timer.unref();
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Why a hook printed nothing, in Reverie's log (never on the agent's screen). */
async function logHookProblem(dataDir: string, event: string, why: string): Promise<void> {
  try {
    const { openEngineLog } = await import('../../platform/log/engineLog.js');
    const log = openEngineLog(dataDir);
    log.logger('cli/hook').warn(`Hook ${event} added nothing: ${why}`);
    await log.close();
  } catch (error) {
    log.debug('The log cannot be written either: a hook still never fails the agent.', { error });
  }
}
