/**
 * The MCP and hook side of the agents bench, in its own process (as agents are): `reverie mcp`
 * started as Claude Code starts it (spawn → initialize → tools/list), 10 MCP clients calling
 * memory_search (or memory_get, the transport's own cost) back-to-back through one host, and `reverie hook`
 * and `reverie search` runs timed from spawn to exit, with their CPU (and a bare `node -e 0`'s, the floor under it).
 * Every child runs the built CLI (bin/reverie.js over out/), never the sources.
 */
import { fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { percentile, round } from './stats.js';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'reverie.js');

export type McpJob =
  | { kind: 'spawn'; workspace: string; dataDir: string; token: string; runs: number }
  | { kind: 'load'; workspace: string; dataDir: string; token: string; clients: number; seconds: number; queries: readonly string[]; tool: 'memory_search' | 'memory_get' }
  | { kind: 'hook'; workspace: string; dataDir: string; token: string; runs: number; event: string; stdin: string }
  | { kind: 'cli-search'; workspace: string; dataDir: string; token: string; runs: number; queries: readonly string[] }
  | { kind: 'node-start'; runs: number };

export interface McpFigures {
  p50: number;
  p95: number;
  rps?: number;
  calls?: number;
  errors: number;
  /** The first failure, to say what went wrong. */
  firstError?: string;
  /** CPU of the spawned `reverie` processes (the MCP bridges or hooks), per call: what the client side costs the machine. */
  clientCpuMsPerCall?: number;
  /** The same during the calls only (their start left out): what each further call costs the client side. */
  clientCallCpuMsPerCall?: number;
  /** CPU of this load generator (the MCP SDK clients) per call: it shares the machine too. */
  generatorCpuMsPerCall?: number;
}

/** User + system CPU of this process's finished children, in ms (Linux /proc; 0 elsewhere). */
function childrenCpuMs(): number {
  try {
    const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // After the command name: field 16 (cutime) and 17 (cstime) of proc(5) are at 13 and 14.
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** User + system CPU of a running process, in ms (Linux /proc; 0 elsewhere or once it is gone). */
function processCpuMs(pid: number | null): number {
  if (pid === null) return 0;
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // After the command name: field 14 (utime) and 15 (stime) of proc(5) are at 11 and 12.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

function env(dataDir: string, token: string): Record<string, string> {
  const e = { ...process.env, REVERIE_DATA_DIR: dataDir, REVERIE_AGENT_TOKEN: token } as Record<string, string>;
  delete e.REVERIE_FROM_SOURCE;
  return e;
}

async function connect(job: { workspace: string; dataDir: string; token: string }): Promise<Client> {
  return (await connectWithPid(job)).client;
}

async function connectWithPid(job: { workspace: string; dataDir: string; token: string }): Promise<{ client: Client; pid: number | null }> {
  const client = new Client({ name: 'bench', version: '1' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', '--workspace', job.workspace, '--data-dir', job.dataDir], env: env(job.dataDir, job.token), stderr: 'ignore' });
  await client.connect(transport);
  return { client, pid: transport.pid };
}

async function spawnToToolsList(job: Extract<McpJob, { kind: 'spawn' }>): Promise<McpFigures> {
  const times: number[] = [];
  let errors = 0;
  for (let i = 0; i < job.runs; i++) {
    const t0 = performance.now();
    try {
      const client = await connect(job);
      await client.listTools();
      times.push(performance.now() - t0);
      await client.close();
    } catch {
      errors++;
    }
  }
  return { p50: round(percentile(times, 50), 1), p95: round(percentile(times, 95), 1), errors };
}

async function load(job: Extract<McpJob, { kind: 'load' }>): Promise<McpFigures> {
  const cpuBefore = childrenCpuMs();
  const connected = await Promise.all(Array.from({ length: job.clients }, () => connectWithPid(job)));
  const clients = connected.map((c) => c.client);
  await Promise.all(clients.map((c) => c.listTools()));
  const bridgesCpu = () => connected.reduce((n, c) => n + processCpuMs(c.pid), 0);
  const bridgesBefore = bridgesCpu();
  const generatorBefore = process.cpuUsage();
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const started = performance.now();
  const end = started + job.seconds * 1000;
  await Promise.all(
    clients.map(async (client, c) => {
      // Clients start evenly spread over the questions: with --distinct, one client does not ask what another asked a second ago.
      for (let k = Math.floor((c * job.queries.length) / job.clients); performance.now() < end; k++) {
        const t0 = performance.now();
        try {
          const args = job.tool === 'memory_search' ? { query: job.queries[k % job.queries.length]!, limit: 5 } : { path: 'MEMORY.md', lines: 20 };
          const result = await client.callTool({ name: job.tool, arguments: args });
          if (result.isError) {
            errors++;
            firstError ??= JSON.stringify(result.content).slice(0, 300);
          } else latencies.push(performance.now() - t0);
        } catch (error) {
          errors++;
          firstError ??= (error as Error).message;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const generator = process.cpuUsage(generatorBefore);
  const clientCallCpuMsPerCall = round((bridgesCpu() - bridgesBefore) / Math.max(1, latencies.length), 2);
  const generatorCpuMsPerCall = round((generator.user + generator.system) / 1000 / Math.max(1, latencies.length), 2);
  await Promise.all(clients.map((c) => c.close()));
  // close() ends the children; their CPU is counted once they are reaped.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const clientCpuMsPerCall = round((childrenCpuMs() - cpuBefore) / Math.max(1, latencies.length), 2);
  return { p50: round(percentile(latencies, 50), 2), p95: round(percentile(latencies, 95), 2), rps: round(latencies.length / elapsed, 1), calls: latencies.length, errors, firstError, clientCpuMsPerCall, clientCallCpuMsPerCall, generatorCpuMsPerCall };
}

/** One spawned command, from spawn to exit; `ok` judges its exit code and stdout. */
function timedSpawn(args: string[], env: Record<string, string>, stdin: string | null, ok: (code: number | null, stdout: string) => boolean): Promise<{ ms: number; ok: boolean }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: [stdin === null ? 'ignore' : 'pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    if (stdin !== null) child.stdin!.end(stdin);
    child.on('exit', (code) => resolve({ ms: performance.now() - t0, ok: ok(code, out) }));
  });
}

/** `runs` spawns one after another: wall p50/p95 of the good ones, and the children's CPU per run (user + system, every run). */
async function timedRuns(runs: number, once: (i: number) => Promise<{ ms: number; ok: boolean }>): Promise<McpFigures> {
  const cpuBefore = childrenCpuMs();
  const times: number[] = [];
  let errors = 0;
  for (let i = 0; i < runs; i++) {
    const { ms, ok } = await once(i);
    if (ok) times.push(ms);
    else errors++;
  }
  return { p50: round(percentile(times, 50), 1), p95: round(percentile(times, 95), 1), errors, clientCpuMsPerCall: round((childrenCpuMs() - cpuBefore) / runs, 1) };
}

function hooks(job: Extract<McpJob, { kind: 'hook' }>): Promise<McpFigures> {
  const args = [bin, 'hook', job.event, '--workspace', job.workspace, '--data-dir', job.dataDir];
  return timedRuns(job.runs, () => timedSpawn(args, env(job.dataDir, job.token), job.stdin, (code, out) => code === 0 && out.includes('additionalContext')));
}

/** `reverie search QUERY --json` as a person types it: with a host the thin path asks it, without one the command loads the engine. */
function cliSearches(job: Extract<McpJob, { kind: 'cli-search' }>): Promise<McpFigures> {
  const isResults = (code: number | null, out: string) => {
    try {
      return code === 0 && Array.isArray(JSON.parse(out));
    } catch {
      return false;
    }
  };
  return timedRuns(job.runs, (i) => timedSpawn([bin, 'search', job.queries[i % job.queries.length]!, '--workspace', job.workspace, '--data-dir', job.dataDir, '--json'], env(job.dataDir, job.token), null, isResults));
}

/** `node -e 0`: what any command costs before it runs a line of its own (the floor under the hook's CPU). */
function nodeStarts(job: Extract<McpJob, { kind: 'node-start' }>): Promise<McpFigures> {
  return timedRuns(job.runs, () => timedSpawn(['-e', '0'], { ...process.env } as Record<string, string>, null, (code) => code === 0));
}

/** Runs one job in a child process and waits for its figures. */
export function runMcpJob(job: McpJob): Promise<McpFigures> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--child'], { execArgv: ['--import', import.meta.resolve('tsx')], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let figures: McpFigures | null = null;
    child.on('message', (message: { figures?: McpFigures; error?: string }) => {
      if (message.figures) figures = message.figures;
      else reject(new Error(`MCP load generator: ${message.error}`));
    });
    child.on('error', reject);
    child.on('exit', (code) => (figures ? resolve(figures) : reject(new Error(`MCP load generator exited with ${code}`))));
    child.send(job);
  });
}

if (process.argv.includes('--child')) {
  process.once('message', (job: McpJob) => {
    const work = job.kind === 'spawn' ? spawnToToolsList(job) : job.kind === 'load' ? load(job) : job.kind === 'hook' ? hooks(job) : job.kind === 'cli-search' ? cliSearches(job) : nodeStarts(job);
    work.then(
      (figures) => process.send!({ figures }, () => process.exit(0)),
      (error: unknown) => process.send!({ error: (error as Error).message }, () => process.exit(1)),
    );
  });
}
