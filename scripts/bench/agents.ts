/**
 * Agent socket figures: a closed-loop load generator in its own process (N clients, each on its
 * own connection, memory.search back-to-back for a fixed time) against a hosting service on a
 * ~10k-chunk workspace, at 1, 10 and 50 clients; then 10 clients storing 100 notes each, checked line by line.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemoryService } from '../../core/src/engine/memoryService.js';
import { AgentSocketClient } from '../../core/src/agents/socket/agentSocketClient.js';
import { resolveExistingWorkspace } from '../../core/src/workspace/resolveWorkspace.js';
import { makeTempWorkspace, removeTempWorkspace } from './engine.js';
import { runSearchLoad } from './agentLoad.js';
import { runMcpJob } from './agentMcpLoad.js';
import { log, round } from './stats.js';
import { makeQuestions, SyntheticCorpus } from './synthetic.js';

export interface AgentsFigures {
  agents_chunks: number;
  /** One client alone: the host's time per search, which N closed-loop clients queue behind. */
  agents_search_p50_ms_1: number;
  agents_search_p95_ms_1: number;
  agents_throughput_rps_1: number;
  agents_search_p50_ms_10: number;
  agents_search_p95_ms_10: number;
  agents_throughput_rps_10: number;
  agents_errors_10: number;
  agents_requests_10: number;
  agents_search_p50_ms_50: number;
  agents_search_p95_ms_50: number;
  agents_throughput_rps_50: number;
  agents_errors_50: number;
  agents_requests_50: number;
  agents_store_notes: number;
  agents_store_s: number;
  agents_store_missing_or_duplicated: number;
  agents_store_torn_lines: number;
  /** After the last store answered: until the index has caught up with the appended notes. */
  agents_store_reindex_s: number;
  /** `reverie mcp` spawned by a client until tools/list answered, with a host running. */
  agents_mcp_spawn_to_tools_p50_ms?: number;
  agents_mcp_spawn_to_tools_p95_ms?: number;
  /** 10 MCP clients (each its own `reverie mcp`) calling memory_search back-to-back through one host. */
  agents_mcp_calls_per_s_10?: number;
  agents_mcp_call_p50_ms_10?: number;
  agents_mcp_call_p95_ms_10?: number;
  agents_mcp_errors_10?: number;
  /** The host's CPU (engine thread and search workers) per memory_search call of that load, and the `reverie mcp` bridges'. */
  agents_mcp_host_cpu_ms_per_call_10?: number;
  agents_mcp_client_cpu_ms_per_call_10?: number;
  /** The same with memory_get (MEMORY.md, 20 lines): what the MCP path itself costs per call. */
  agents_mcp_get_calls_per_s_10?: number;
  agents_mcp_get_call_p95_ms_10?: number;
  agents_mcp_get_errors_10?: number;
  /** `reverie hook UserPromptSubmit` from spawn to exit, with a host and without one. */
  agents_hook_p50_ms_host?: number;
  agents_hook_p95_ms_host?: number;
  agents_hook_p50_ms_no_host?: number;
  agents_hook_p95_ms_no_host?: number;
  agents_hook_errors?: number;
  /** CPU (user + system) of one `reverie hook` process, and of a bare `node -e 0`: the floor any command starts from. */
  agents_hook_cpu_ms_host?: number;
  agents_hook_cpu_ms_no_host?: number;
  agents_node_start_cpu_ms?: number;
  /** `reverie search QUERY --json` from spawn to exit and its CPU: with a host (the thin path asks it) and without (the engine loads). */
  agents_cli_search_p50_ms_host?: number;
  agents_cli_search_p95_ms_host?: number;
  agents_cli_search_cpu_ms_host?: number;
  agents_cli_search_p50_ms_no_host?: number;
  agents_cli_search_cpu_ms_no_host?: number;
  agents_cli_search_errors?: number;
}


const STORE_CLIENTS = 10;
const STORES_PER_CLIENT = 100;
const STORED_LINE = /^- Bench note c(\d+)-n(\d+) about the [a-z]+ rollout\.$/;

/** Grows a synthetic workspace until the index holds `targetChunks`. */
async function buildCorpus(service: MemoryService, corpus: SyntheticCorpus, targetChunks: number): Promise<number> {
  corpus.writeRootFiles();
  let chunks = 0;
  let batch = Math.max(50, Math.round(targetChunks / 10));
  while (chunks < targetChunks) {
    corpus.writeNotes(batch);
    await service.sync(false);
    const before = chunks;
    chunks = service.status().index.chunks;
    const perFile = (chunks - before) / batch;
    batch = Math.max(10, Math.ceil(((targetChunks - chunks) / Math.max(1, perFile)) * 1.02));
  }
  return chunks;
}

async function connectAs(socketPath: string, token: string): Promise<AgentSocketClient> {
  const client = await AgentSocketClient.connect(socketPath, 10_000);
  await client.call('auth', { token });
  return client;
}

function benchNote(client: number, n: number): string {
  const topics = ['canary', 'replica', 'invoice', 'ledger', 'garden', 'espresso', 'marathon'];
  return `Bench note c${client}-n${n} about the ${topics[(client + n) % topics.length]} rollout.`;
}

/** 10 clients storing 100 notes each, concurrently; then every note is looked for in the daily note(s). */
async function storeLoad(service: MemoryService, workspaceRoot: string): Promise<Pick<AgentsFigures, 'agents_store_notes' | 'agents_store_s' | 'agents_store_missing_or_duplicated' | 'agents_store_torn_lines'>> {
  const { token } = await service.invoke('agents.add', { name: 'bench-writer', write: true });
  const connections = await Promise.all(Array.from({ length: STORE_CLIENTS }, () => connectAs(service.agents.socketPath, token)));
  const paths = new Set<string>();
  const started = performance.now();
  await Promise.all(
    connections.map(async (client, c) => {
      for (let n = 0; n < STORES_PER_CLIENT; n++) {
        const stored = await client.call<{ path: string }>('memory.store', { text: benchNote(c, n) });
        paths.add(stored.path);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  for (const client of connections) client.close();

  const counts = new Map<string, number>();
  let torn = 0;
  // A run across midnight writes to two daily notes: read every one an answer named.
  for (const rel of paths) {
    const text = fs.readFileSync(path.join(workspaceRoot, rel), 'utf8');
    if (!text.endsWith('\n')) torn++;
    for (const line of text.split('\n')) {
      if (line === '' || line.startsWith('# ')) continue;
      const m = STORED_LINE.exec(line);
      if (!m || line !== `- ${benchNote(Number(m[1]), Number(m[2]))}`) {
        torn++;
        continue;
      }
      counts.set(`${m[1]}-${m[2]}`, (counts.get(`${m[1]}-${m[2]}`) ?? 0) + 1);
    }
  }
  let missingOrDuplicated = 0;
  for (let c = 0; c < STORE_CLIENTS; c++) for (let n = 0; n < STORES_PER_CLIENT; n++) missingOrDuplicated += Math.abs((counts.get(`${c}-${n}`) ?? 0) - 1);
  return {
    agents_store_notes: [...counts.values()].reduce((a, b) => a + b, 0),
    agents_store_s: round(seconds, 2),
    agents_store_missing_or_duplicated: missingOrDuplicated,
    agents_store_torn_lines: torn,
  };
}

/** MCP through the host (thin `reverie mcp`), then hooks with the host and, after it closed, without. */
async function mcpFigures(service: MemoryService, ws: { workspace: string; dataDir: string }, queries: readonly string[], quick: boolean) {
  // The children run bin/reverie.js, which falls back to the sources through tsx when out/ is older than them.
  const built = spawnSync(process.execPath, [path.join(import.meta.dirname, '..', 'build.mjs'), '--if-stale'], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('build failed');
  const { token } = await service.invoke('agents.add', { name: 'bench-mcp' });
  const where = { workspace: fs.realpathSync(ws.workspace), dataDir: ws.dataDir, token };
  // A curated entry with a trigger: the hook answers with context every time.
  fs.appendFileSync(path.join(ws.workspace, 'MEMORY.md'), '\n- Deploys of the ledger service go through make release. <!-- trigger: deploy the ledger -->\n');
  const stdin = JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 'bench', cwd: ws.workspace, prompt: 'how do I deploy the ledger service today?' });
  const runs = quick ? 10 : 30;
  const spawnFigures = await runMcpJob({ kind: 'spawn', ...where, runs });
  log(`  reverie mcp spawn → tools/list with a host: p50 ${spawnFigures.p50} ms, p95 ${spawnFigures.p95} ms (${runs} runs, ${spawnFigures.errors} errors)`);
  // The host's CPU (engine thread and search workers) per call: valid under machine load, unlike calls/s.
  const hostCpuBefore = process.cpuUsage();
  const ten = await runMcpJob({ kind: 'load', ...where, clients: 10, seconds: quick ? 3 : 8, queries, tool: 'memory_search' });
  const hostCpu = process.cpuUsage(hostCpuBefore);
  const hostCpuMsPerCall = round((hostCpu.user + hostCpu.system) / 1000 / Math.max(1, ten.calls ?? 0), 2);
  log(`  10 MCP clients, memory_search: ${ten.rps} calls/s, p50 ${ten.p50} ms, p95 ${ten.p95} ms, ${ten.errors} errors${ten.firstError ? ` (first: ${ten.firstError})` : ''}; host CPU ${hostCpuMsPerCall} ms/call, client ${ten.clientCpuMsPerCall} ms/call (load average ${os.loadavg()[0]!.toFixed(1)})`);
  const reads = await runMcpJob({ kind: 'load', ...where, clients: 10, seconds: quick ? 3 : 8, queries, tool: 'memory_get' });
  log(`  10 MCP clients, memory_get: ${reads.rps} calls/s, p50 ${reads.p50} ms, p95 ${reads.p95} ms, ${reads.errors} errors${reads.firstError ? ` (first: ${reads.firstError})` : ''}`);
  const nodeStart = await runMcpJob({ kind: 'node-start', runs });
  const withHost = await runMcpJob({ kind: 'hook', ...where, runs, event: 'UserPromptSubmit', stdin });
  log(`  hook with a host: p50 ${withHost.p50} ms, p95 ${withHost.p95} ms, CPU ${withHost.clientCpuMsPerCall} ms a run (node -e 0: ${nodeStart.clientCpuMsPerCall} ms) (${withHost.errors} without context; load average ${os.loadavg()[0]!.toFixed(1)})`);
  const searchHost = await runMcpJob({ kind: 'cli-search', ...where, runs, queries });
  log(`  reverie search with a host: p50 ${searchHost.p50} ms, p95 ${searchHost.p95} ms, CPU ${searchHost.clientCpuMsPerCall} ms a run (${searchHost.errors} errors; load average ${os.loadavg()[0]!.toFixed(1)})`);
  await service.close();
  const noHost = await runMcpJob({ kind: 'hook', ...where, runs, event: 'UserPromptSubmit', stdin });
  log(`  hook without a host: p50 ${noHost.p50} ms, p95 ${noHost.p95} ms, CPU ${noHost.clientCpuMsPerCall} ms a run (${noHost.errors} without context)`);
  // Each run loads the engine and checks the index: fewer runs.
  const searchNoHost = await runMcpJob({ kind: 'cli-search', ...where, runs: quick ? 5 : 10, queries });
  log(`  reverie search without a host: p50 ${searchNoHost.p50} ms, p95 ${searchNoHost.p95} ms, CPU ${searchNoHost.clientCpuMsPerCall} ms a run (${searchNoHost.errors} errors; load average ${os.loadavg()[0]!.toFixed(1)})`);
  return {
    agents_mcp_spawn_to_tools_p50_ms: spawnFigures.p50,
    agents_mcp_spawn_to_tools_p95_ms: spawnFigures.p95,
    agents_mcp_calls_per_s_10: ten.rps ?? 0,
    agents_mcp_call_p50_ms_10: ten.p50,
    agents_mcp_call_p95_ms_10: ten.p95,
    agents_mcp_errors_10: ten.errors,
    agents_mcp_host_cpu_ms_per_call_10: hostCpuMsPerCall,
    agents_mcp_client_cpu_ms_per_call_10: ten.clientCpuMsPerCall,
    agents_mcp_get_calls_per_s_10: reads.rps ?? 0,
    agents_mcp_get_call_p95_ms_10: reads.p95,
    agents_mcp_get_errors_10: reads.errors,
    agents_hook_p50_ms_host: withHost.p50,
    agents_hook_p95_ms_host: withHost.p95,
    agents_hook_p50_ms_no_host: noHost.p50,
    agents_hook_p95_ms_no_host: noHost.p95,
    agents_hook_errors: withHost.errors + noHost.errors,
    agents_hook_cpu_ms_host: withHost.clientCpuMsPerCall,
    agents_hook_cpu_ms_no_host: noHost.clientCpuMsPerCall,
    agents_node_start_cpu_ms: nodeStart.clientCpuMsPerCall,
    agents_cli_search_p50_ms_host: searchHost.p50,
    agents_cli_search_p95_ms_host: searchHost.p95,
    agents_cli_search_cpu_ms_host: searchHost.clientCpuMsPerCall,
    agents_cli_search_p50_ms_no_host: searchNoHost.p50,
    agents_cli_search_cpu_ms_no_host: searchNoHost.clientCpuMsPerCall,
    agents_cli_search_errors: searchHost.errors + searchNoHost.errors,
  };
}

/** `withMcp`: also the MCP and hook figures (spawns built `reverie` processes; the bench, not the unit test). */
export async function runAgentsBench(quick: boolean, withMcp = false): Promise<AgentsFigures> {
  const targetChunks = quick ? 2_000 : 10_000;
  const seconds = quick ? 3 : 8;
  const ws = makeTempWorkspace('agents');
  const service = new MemoryService({ dataDir: ws.dataDir, workspace: resolveExistingWorkspace(ws.workspace) });
  try {
    const corpus = new SyntheticCorpus(ws.workspace);
    log(`Agents: building a ${targetChunks}-chunk workspace …`);
    const buildStarted = performance.now();
    const chunks = await buildCorpus(service, corpus, targetChunks);
    log(`  built in ${round((performance.now() - buildStarted) / 1000, 1)} s`);
    await service.startHosting({ kind: 'daemon', url: null });
    if (!service.agents.socketListening) throw new Error(`agent socket not listening: ${service.status().notices.join('; ')}`);
    const { token } = await service.invoke('agents.add', { name: 'bench-reader' });
    const queries = makeQuestions(corpus, 777).map((q) => q.query);
    const load = (clients: number, seconds: number) => runSearchLoad({ socketPath: service.agents.socketPath, token, clients, seconds, queries });
    await load(2, 1); // warm-up: statement and page caches, every search worker
    log(`  ${chunks} chunks; 1, 10, then 50 clients searching for ${seconds} s each …`);
    const one = await load(1, seconds);
    log(`  1 client: p50 ${one.p50} ms, p95 ${one.p95} ms, ${one.rps} req/s, ${one.errors} errors`);
    const ten = await load(10, seconds);
    log(`  10 clients: p50 ${ten.p50} ms, p95 ${ten.p95} ms, ${ten.rps} req/s, ${ten.errors} errors`);
    const fifty = await load(50, seconds);
    log(`  50 clients: p50 ${fifty.p50} ms, p95 ${fifty.p95} ms, ${fifty.rps} req/s, ${fifty.errors} errors`);
    const store = await storeLoad(service, ws.workspace);
    log(`  stores: ${store.agents_store_notes} notes in ${store.agents_store_s} s, ${store.agents_store_missing_or_duplicated} missing/duplicated, ${store.agents_store_torn_lines} torn`);
    const reindexStarted = performance.now();
    await service.sync(false); // queued behind every re-index the stores asked for
    const reindexS = round((performance.now() - reindexStarted) / 1000, 2);
    log(`  index caught up with the stores ${reindexS} s after the last one`);
    const mcp = withMcp ? await mcpFigures(service, ws, queries, quick) : {};
    return {
      ...mcp,
      agents_chunks: chunks,
      agents_search_p50_ms_1: one.p50,
      agents_search_p95_ms_1: one.p95,
      agents_throughput_rps_1: one.rps,
      agents_search_p50_ms_10: ten.p50,
      agents_search_p95_ms_10: ten.p95,
      agents_throughput_rps_10: ten.rps,
      agents_errors_10: ten.errors,
      agents_requests_10: ten.requests,
      agents_search_p50_ms_50: fifty.p50,
      agents_search_p95_ms_50: fifty.p95,
      agents_throughput_rps_50: fifty.rps,
      agents_errors_50: fifty.errors,
      agents_requests_50: fifty.requests,
      ...store,
      agents_store_reindex_s: reindexS,
    };
  } finally {
    await service.close();
    removeTempWorkspace(ws);
  }
}
