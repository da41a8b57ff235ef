/**
 * Every distinct question of the MCP host bench (`agentMcpHostCpu.ts --distinct`) asked once
 * through one `reverie mcp` client, the answers (text and structured content) written one JSON
 * line each to a file: run it before and after a speed change and compare the files, so a faster
 * search is known to answer exactly as before. The host's answer cache is off.
 *   node --import tsx scripts/bench/agentMcpAnswers.ts OUT.jsonl [--chunks N]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { MemoryService } from '../../core/src/engine/memoryService.js';
import { resolveExistingWorkspace } from '../../core/src/workspace/resolveWorkspace.js';
import { makeTempWorkspace, removeTempWorkspace, syncSyntheticChunks } from './engine.js';
import { log } from './stats.js';
import { makeQuestions } from './synthetic.js';

const out = process.argv[2];
if (!out || out.startsWith('--')) throw new Error('usage: agentMcpAnswers.ts OUT.jsonl [--chunks N]');
const at = process.argv.indexOf('--chunks');
const targetChunks = at >= 0 ? Number(process.argv[at + 1]) : 2000;
process.env.REVERIE_SEARCH_CACHE = '0';
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'reverie.js');

const ws = makeTempWorkspace('mcp-answers');
const service = new MemoryService({ dataDir: ws.dataDir, workspace: resolveExistingWorkspace(ws.workspace) });
try {
  const corpus = await syncSyntheticChunks(service, ws.workspace, targetChunks);
  await service.startHosting({ kind: 'daemon', url: null });
  const { token } = await service.invoke('agents.add', { name: 'bench-answers' });
  const env = { ...process.env, REVERIE_DATA_DIR: ws.dataDir, REVERIE_AGENT_TOKEN: token } as Record<string, string>;
  delete env.REVERIE_FROM_SOURCE;
  const client = new Client({ name: 'answers', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', '--workspace', fs.realpathSync(ws.workspace), '--data-dir', ws.dataDir], env, stderr: 'ignore' }));
  const queries = [...new Set(makeQuestions(corpus, 777, 10).map((q) => q.query))];
  const lines: string[] = [];
  for (const query of queries) {
    const result = await client.callTool({ name: 'memory_search', arguments: { query, limit: 5 } });
    lines.push(JSON.stringify({ query, result }));
  }
  await client.close();
  fs.writeFileSync(out, `${lines.join('\n')}\n`);
  log(`${service.status().index.chunks} chunks, ${queries.length} distinct questions answered into ${out}`);
} finally {
  await service.close();
  removeTempWorkspace(ws);
}
process.exit(0);
