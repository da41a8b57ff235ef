/**
 * The closed-loop load generator of the agents bench, in its own process (as real agents are):
 * N connections, each sending memory.search back-to-back until the time is up. Started by
 * `runSearchLoad`; answers with the latencies the clients saw.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { AgentSocketClient } from '../../core/src/agents/socket/agentSocketClient.js';
import { percentile, round } from './stats.js';

export interface LoadFigures {
  p50: number;
  p95: number;
  rps: number;
  errors: number;
  requests: number;
  /** CPU time the load generator itself used per request (it shares the machine with the engine). */
  clientCpuMsPerRequest: number;
}

interface LoadJob {
  socketPath: string;
  token: string;
  clients: number;
  seconds: number;
  queries: readonly string[];
}

async function connectAs(socketPath: string, token: string): Promise<AgentSocketClient> {
  const client = await AgentSocketClient.connect(socketPath, 10_000);
  await client.call('auth', { token });
  return client;
}

async function generateLoad({ socketPath, token, clients, seconds, queries }: LoadJob): Promise<LoadFigures> {
  const connections = await Promise.all(Array.from({ length: clients }, () => connectAs(socketPath, token)));
  const latencies: number[] = [];
  let errors = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    connections.map(async (client, c) => {
      // Each client walks the question list from its own offset: concurrent queries differ.
      for (let k = c * 17; performance.now() < end; k++) {
        const t0 = performance.now();
        try {
          await client.call('memory.search', { query: queries[k % queries.length]!, limit: 10 });
          latencies.push(performance.now() - t0);
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  for (const client of connections) client.close();
  const requests = latencies.length + errors;
  return {
    p50: round(percentile(latencies, 50), 2),
    p95: round(percentile(latencies, 95), 2),
    rps: round(latencies.length / elapsed, 1),
    errors,
    requests,
    clientCpuMsPerRequest: round((cpu.user + cpu.system) / 1000 / Math.max(1, requests), 2),
  };
}

/** Runs one load in a child process and waits for its figures. */
export function runSearchLoad(job: LoadJob): Promise<LoadFigures> {
  return new Promise((resolve, reject) => {
    // This file is TypeScript: the child loads it through tsx whatever runs the parent (tsx, vitest).
    const child = fork(fileURLToPath(import.meta.url), ['--child'], { execArgv: ['--import', import.meta.resolve('tsx')], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let figures: LoadFigures | null = null;
    child.on('message', (message: { figures?: LoadFigures; error?: string }) => {
      if (message.figures) figures = message.figures;
      else reject(new Error(`load generator: ${message.error}`));
    });
    child.on('error', reject);
    child.on('exit', (code) => (figures ? resolve(figures) : reject(new Error(`load generator exited with ${code}`))));
    child.send(job);
  });
}

if (process.argv.includes('--child')) {
  process.once('message', (job: LoadJob) => {
    generateLoad(job).then(
      (figures) => process.send!({ figures }, () => process.exit(0)),
      (error: unknown) => process.send!({ error: (error as Error).message }, () => process.exit(1)),
    );
  });
}
