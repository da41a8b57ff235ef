/**
 * Knowledge graph figures: full extraction over 10k memory entries (2k with --quick), the
 * incremental update after editing one file, and a 2,000-node overview query, all through
 * the product's own engine (MemoryService).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { GraphSlice } from '../../core/src/api/contract.js';
import { MemoryService } from '../../core/src/api/service.js';
import { resolveExistingWorkspace } from '../../core/src/workspace/resolveWorkspace.js';
import { makeTempWorkspace, removeTempWorkspace } from './engine.js';
import { Rng } from './prng.js';
import { log, round } from './stats.js';

export interface GraphFigures {
  graph_entries: number;
  graph_files: number;
  graph_extract_s: number;
  graph_entities: number;
  graph_claims: number;
  graph_update_ms: number;
  graph_overview_ms: number;
  graph_overview_nodes: number;
  graph_overview_edges: number;
}

const ENTRIES_PER_FILE = 50;
const FIRST = ['Marek', 'Dana', 'Priya', 'Jonas', 'Aiko', 'Sam', 'Zoë', 'Kofi', 'Lena', 'Ravi', 'Ines', 'Tomasz', 'Yuki', 'Omar', 'Greta'];
const LAST = ['Nowak', 'Silva', 'Rao', 'Berg', 'Tanaka', 'Okafor', 'Müller', 'Haddad', 'Costa', 'Lindqvist'];
const PLACES = ['Lisbon', 'Porto', 'Berlin', 'Oslo', 'Kyoto', 'Accra', 'Vienna', 'Madrid'];
const TOOLS = ['restic', 'Postgres', 'Grafana', 'Terraform', 'Kafka', 'Redis', 'Neovim', 'Docker Compose'];
const TOPICS = 'ledgerd billing invoices backups dentist garden marathon podcast budget release hotfix queue cache timezone metrics dashboard novel travel'.split(' ');

function entry(rng: Rng, day: number, i: number, people: string[]): string {
  const who = rng.zipf(people);
  const other = rng.zipf(people);
  const topic = rng.zipf(TOPICS);
  const host = `${topic}-${(day * 7 + i) % 40}`;
  switch (rng.int(7)) {
    case 0:
      return `- Lunch with ${who}; she moved to ${rng.pick(PLACES)} after the ${topic} work.`;
    case 1:
      return `- ${who} owns the ${topic} service on ${host}. #${topic}`;
    case 2:
      return `- The ${topic} job uses ${rng.pick(TOOLS)} and runs on ${host}.`;
    case 3:
      return `- Call with ${who} and ${other} about [[${topic}]] — see https://wiki.example.com/${topic}/${i}.`;
    case 4:
      return `- ${capitalise(topic)}: ${who} wants the ${rng.pick(TOOLS)} upgrade before Friday.`;
    case 5:
      return `- Reviewed \`${topic}_worker.ts\` in services/${topic}/main.go with ${who}.`;
    default:
      return `- Met ${who} at the ${rng.pick(PLACES)} meetup; talked about #${topic} and [[${other}]].`;
  }
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export async function runGraphBench(quick: boolean): Promise<GraphFigures> {
  const entries = quick ? 2_000 : 10_000;
  const files = Math.ceil(entries / ENTRIES_PER_FILE);
  const ws = makeTempWorkspace('graph');
  const rng = new Rng(8);
  const people = FIRST.flatMap((f) => LAST.map((l) => `${f} ${l}`));
  const start = Date.UTC(2025, 0, 1);
  fs.mkdirSync(path.join(ws.workspace, 'memory', 'imports', 'codex', 'notes'), { recursive: true });
  for (let f = 0; f < files; f++) {
    const date = new Date(start + f * 86_400_000).toISOString().slice(0, 10);
    const lines = [`# ${date}`, '', `## ${capitalise(rng.zipf(TOPICS))}`];
    for (let i = 0; i < ENTRIES_PER_FILE; i++) lines.push(entry(rng, f, i, people));
    const rel = f % 10 === 9 ? `memory/imports/codex/notes/${date}.md` : `memory/${date}.md`;
    fs.writeFileSync(path.join(ws.workspace, rel), lines.join('\n') + '\n');
  }
  fs.writeFileSync(path.join(ws.workspace, 'MEMORY.md'), '# Long-Term Memory\n\n- Keep the gateway on loopback.\n');
  log(`graph: ${entries} entries in ${files} files`);

  const service = new MemoryService({ dataDir: ws.dataDir, workspace: resolveExistingWorkspace(ws.workspace) });
  try {
    await service.invoke('index.sync', { force: false });
    const first = service.graph.lastUpdate!;
    log(`graph: first extraction during sync ${round(first.durationMs / 1000)} s`);
    // Re-extract everything on its own, so indexing and embedding are not in the figure.
    const full = await service.graph.update(true);
    log(`graph: forced full extraction ${round(full.durationMs / 1000)} s, ${full.entities} entities, ${full.claims} claims`);

    const edited = path.join(ws.workspace, 'memory', `${new Date(start + 3 * 86_400_000).toISOString().slice(0, 10)}.md`);
    fs.appendFileSync(edited, '- Dana Silva moved to Kyoto; she uses Neovim now.\n');
    await service.invoke('index.sync', { force: false });
    const update = service.graph.lastUpdate!;
    if (update.extracted !== 1) throw new Error(`graph bench: expected 1 file re-extracted, got ${update.extracted}`);
    log(`graph: incremental update after editing one file ${update.durationMs} ms`);

    const t0 = performance.now();
    const overview = (await service.invoke('graph.overview', { limit: 2_000 })) as GraphSlice;
    const overviewMs = performance.now() - t0;
    log(`graph: overview 2,000 nodes in ${round(overviewMs)} ms (${overview.entities.length} nodes, ${overview.edges.length} edges)`);
    return {
      graph_entries: entries,
      graph_files: files,
      graph_extract_s: round(full.durationMs / 1000),
      graph_entities: full.entities,
      graph_claims: full.claims,
      graph_update_ms: round(update.durationMs),
      graph_overview_ms: round(overviewMs),
      graph_overview_nodes: overview.entities.length,
      graph_overview_edges: overview.edges.length,
    };
  } finally {
    await service.close();
    removeTempWorkspace(ws);
  }
}

// Run alone: `npx tsx scripts/bench/graph.ts [--quick]` prints the figures as one JSON line.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  runGraphBench(process.argv.includes('--quick'))
    .then((figures) => process.stdout.write(JSON.stringify(figures) + '\n'))
    .catch((error: unknown) => {
      process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 1;
    });
}
