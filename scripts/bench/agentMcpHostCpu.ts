/**
 * The host's CPU per MCP call: a hosting service on a synthetic workspace, 10 `reverie mcp` clients
 * calling memory_search through it (the load generator in its own process), the host's
 * process.cpuUsage delta (every thread: engine and search workers) divided by the calls answered.
 * Valid under machine load, unlike calls/s. Run under `node --cpu-prof` for the profile:
 *   nice -n 10 node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx scripts/bench/agentMcpHostCpu.ts [--chunks N] [--seconds S] [--tool memory_get] [--distinct]
 */
import fs from 'node:fs';
import os from 'node:os';
import { MemoryService } from '../../core/src/engine/memoryService.js';
import { resolveExistingWorkspace } from '../../core/src/workspace/resolveWorkspace.js';
import { makeTempWorkspace, removeTempWorkspace, syncSyntheticChunks } from './engine.js';
import { runMcpJob } from './agentMcpLoad.js';
import { log, round } from './stats.js';
import { makeQuestions } from './synthetic.js';

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1]! : fallback;
}

const targetChunks = Number(option('--chunks', '2000'));
const seconds = Number(option('--seconds', '8'));
const tool = option('--tool', 'memory_search') as 'memory_search' | 'memory_get';
/** The agents bench's 320 questions (272 distinct, so each repeats within a run), or ten times as many: few repeats. */
const questionScale = process.argv.includes('--distinct') ? 10 : 1;

const ws = makeTempWorkspace('mcp-cpu');
const service = new MemoryService({ dataDir: ws.dataDir, workspace: resolveExistingWorkspace(ws.workspace) });
try {
  const corpus = await syncSyntheticChunks(service, ws.workspace, targetChunks);
  await service.startHosting({ kind: 'daemon', url: null });
  const { token } = await service.invoke('agents.add', { name: 'bench-mcp' });
  const queries = makeQuestions(corpus, 777, questionScale).map((q) => q.query);
  const where = { workspace: fs.realpathSync(ws.workspace), dataDir: ws.dataDir, token };
  await runMcpJob({ kind: 'load', ...where, clients: 10, seconds: 2, queries, tool }); // warm-up
  const cpu0 = process.cpuUsage();
  const figures = await runMcpJob({ kind: 'load', ...where, clients: 10, seconds, queries, tool });
  const cpu = process.cpuUsage(cpu0);
  const hostCpuMs = (cpu.user + cpu.system) / 1000;
  log(`${service.status().index.chunks} chunks, 10 MCP clients, ${tool} (${new Set(queries).size} distinct queries), ${seconds} s, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  log(`  ${figures.calls} calls, ${figures.rps} calls/s, p50 ${figures.p50} ms, p95 ${figures.p95} ms, ${figures.errors} errors${figures.firstError ? ` (${figures.firstError})` : ''}`);
  log(`  host CPU ${round(hostCpuMs / Math.max(1, figures.calls ?? 0), 2)} ms/call (user ${round(cpu.user / 1000 / Math.max(1, figures.calls ?? 0), 2)}, system ${round(cpu.system / 1000 / Math.max(1, figures.calls ?? 0), 2)}); client CPU ${figures.clientCpuMsPerCall} ms/call (${figures.clientCallCpuMsPerCall} during the calls); load generator ${figures.generatorCpuMsPerCall} ms/call`);
  // Repeated questions are answered from the host's cache of recent answers: say how many were (REVERIE_SEARCH_CACHE=0 turns it off).
  log(`  searches since start: ${JSON.stringify(service.search.workers())}`);
} finally {
  await service.close();
  removeTempWorkspace(ws);
}
process.exit(0);
