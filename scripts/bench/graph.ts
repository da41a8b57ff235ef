/**
 * Knowledge graph figures: full extraction over 10k memory entries (2k with --quick), the
 * incremental update after editing one file, and a 2,000-node overview query, all through
 * the product's own engine (MemoryService). `--daily N` measures the desktop corpus instead.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { MemoryService } from '../../core/src/engine/memoryService.js';
import { extractFile } from '../../core/src/graph/extractFile.js';
import { resolveExistingWorkspace } from '../../core/src/workspace/resolveWorkspace.js';
import { makeTempWorkspace, removeTempWorkspace } from './engine.js';
import { Rng } from './prng.js';
import { log, percentile, round } from './stats.js';
import { SyntheticCorpus } from './synthetic.js';
import { runLabelledGraphBench, type LabelledGraphFigures } from './graphLabelled/run.js';

export interface GraphFigures extends LabelledGraphFigures {
  graph_entries: number;
  graph_files: number;
  graph_extract_s: number;
  graph_entities: number;
  graph_claims: number;
  graph_update_ms: number;
  /** CPU milliseconds of the same one-file updates (process.cpuUsage, median of 7): what load does not inflate. */
  graph_update_cpu_ms: number;
  graph_overview_ms: number;
  graph_overview_nodes: number;
  graph_overview_edges: number;
  /** Extracting one note that is a single 300 KB line of names and relations (median of 3). */
  graph_long_line_ms: number;
}

const ENTRIES_PER_FILE = 50;
/** Edits timed for the one-file update (median reported). */
const UPDATE_SAMPLES = 7;
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

/** One 300 KB line of the benchmark's sentences, extracted by the rules: the milliseconds, median of 3. */
function timeLongLine(rng: Rng, people: string[]): number {
  let line = '';
  for (let i = 0; line.length < 300_000; i++) line += `${entry(rng, 0, i, people).slice(2)} `;
  const text = `# One long line\n\n${line.slice(0, 300_000)}\n`;
  const times = [0, 1, 2].map(() => {
    const t = performance.now();
    extractFile('memory/long-line.md', text, '2026-01-01');
    return performance.now() - t;
  });
  return percentile(times, 50);
}

export async function runGraphBench(quick: boolean): Promise<GraphFigures> {
  const labelled = await runLabelledGraphBench();
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

    // One edit is one sample on a shared machine: the median of several edits, each to another file.
    const updates: number[] = [];
    const updateCpu: number[] = [];
    for (let k = 0; k < UPDATE_SAMPLES; k++) {
      const edited = path.join(ws.workspace, 'memory', `${new Date(start + (3 + k) * 86_400_000).toISOString().slice(0, 10)}.md`);
      fs.appendFileSync(edited, '- Dana Silva moved to Kyoto; she uses Neovim now.\n');
      await service.invoke('index.sync', { force: false });
      const update = service.graph.lastUpdate!;
      if (update.extracted !== 1) throw new Error(`graph bench: expected 1 file re-extracted, got ${update.extracted}`);
      updates.push(update.durationMs);
      updateCpu.push(update.cpuMs);
    }
    const updateMs = percentile(updates, 50);
    const updateCpuMs = percentile(updateCpu, 50);
    log(`graph: incremental update CPU time: median ${round(updateCpuMs)} ms of ${UPDATE_SAMPLES} (${updateCpu.join(', ')} ms)`);
    log(`graph: incremental update after editing one file: median ${round(updateMs)} ms of ${UPDATE_SAMPLES} (${updates.join(', ')} ms; load ${os.loadavg()[0]!.toFixed(1)})`);

    const t0 = performance.now();
    const overview = await service.invoke('graph.overview', { limit: 2_000 });
    const overviewMs = performance.now() - t0;
    log(`graph: overview 2,000 nodes in ${round(overviewMs)} ms (${overview.entities.length} nodes, ${overview.edges.length} edges)`);
    const longLineMs = timeLongLine(rng, people);
    log(`graph: a note of one 300 KB line extracted in ${round(longLineMs)} ms (median of 3; load ${os.loadavg()[0]!.toFixed(1)})`);
    return {
      ...labelled,
      graph_entries: entries,
      graph_files: files,
      graph_extract_s: round(full.durationMs / 1000),
      graph_entities: full.entities,
      graph_claims: full.claims,
      graph_update_ms: round(updateMs),
      graph_update_cpu_ms: round(updateCpuMs),
      graph_overview_ms: round(overviewMs),
      graph_overview_nodes: overview.entities.length,
      graph_overview_edges: overview.edges.length,
      graph_long_line_ms: round(longLineMs),
    };
  } finally {
    await service.close();
    removeTempWorkspace(ws);
  }
}


export interface GraphScaleFigures {
  scale_files: number;
  scale_bytes: number;
  /** The first extraction, as the sync runs it after index-ready. */
  scale_first_extract_s: number;
  /** A forced full re-extraction on its own, and the bytes the process wrote meanwhile (Linux). */
  scale_forced_extract_s: number;
  scale_forced_written_mb: number | null;
  scale_entities: number;
  scale_claims: number;
  /** Rows of every graph table, and megabytes of every graph table and index (dbstat). */
  scale_graph_rows: Record<string, number>;
  scale_graph_tables_mb: Record<string, number>;
  scale_graph_mb: number;
  scale_index_mb: number;
  scale_update_ms: number;
  scale_delete_ms: number;
  scale_query_ms: Record<string, number>;
}

/** Bytes this process has written so far (Linux), to see what an extraction costs the disk. */
function writtenBytes(): number | null {
  try {
    return Number(/^wchar: (\d+)$/m.exec(fs.readFileSync('/proc/self/io', 'utf8'))?.[1] ?? NaN);
  } catch {
    return null;
  }
}

/**
 * The desktop corpus (SyntheticCorpus notes) at `files` files: the first extraction during
 * the sync, a forced re-extraction, graph rows and bytes, the update after editing and after
 * deleting one file, and query times, through the contract only (so it runs against any schema).
 * `npx tsx scripts/bench/graph.ts --daily 2000` prints them as one JSON line.
 */
export async function runGraphScaleBench(files: number): Promise<GraphScaleFigures> {
  const ws = makeTempWorkspace('graph-scale');
  const corpus = new SyntheticCorpus(ws.workspace);
  corpus.writeRootFiles();
  const written = corpus.writeNotes(files);
  log(`graph scale: ${files} files, ${round(written.bytes / 1e6, 1)} MB`);
  const service = new MemoryService({ dataDir: ws.dataDir, workspace: resolveExistingWorkspace(ws.workspace) });
  try {
    await service.invoke('index.sync', { force: false });
    const first = service.graph.lastUpdate!;
    log(`graph scale: first extraction ${round(first.durationMs / 1000, 2)} s, ${first.entities} entities, ${first.claims} claims`);
    const before = writtenBytes();
    const forced = await service.graph.update(true);
    const after = writtenBytes();
    const forcedMb = before === null || after === null ? null : round((after - before) / 1e6, 1);
    log(`graph scale: forced re-extraction ${round(forced.durationMs / 1000, 2)} s, ${forcedMb ?? '?'} MB written`);

    const db = (service as unknown as { db: BetterSqlite3.Database }).db;
    const one = (sql: string) => db.prepare(sql).pluck().get() as number;
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'graph%' ORDER BY name").pluck().all() as string[];
    const rows = Object.fromEntries(tables.map((t) => [t, one(`SELECT count(*) FROM ${t}`)]));
    db.pragma('wal_checkpoint(TRUNCATE)');
    const sizes = db
      .prepare("SELECT name, sum(pgsize) AS bytes FROM dbstat WHERE name IN (SELECT name FROM sqlite_master WHERE tbl_name LIKE 'graph%') GROUP BY name ORDER BY bytes DESC")
      .all() as Array<{ name: string; bytes: number }>;
    const graphBytes = sizes.reduce((sum, r) => sum + r.bytes, 0);
    const indexBytes = fs.statSync(service.indexPath).size;
    log(`graph scale: rows ${JSON.stringify(rows)}; graph ${round(graphBytes / 1e6, 1)} MB of ${round(indexBytes / 1e6, 1)} MB index`);

    const time = async (label: string, work: () => Promise<unknown>, times = 3): Promise<[string, number]> => {
      const samples: number[] = [];
      for (let i = 0; i < times; i++) {
        const t0 = performance.now();
        await work();
        samples.push(performance.now() - t0);
      }
      return [label, round(Math.min(...samples), 1)];
    };
    // The most connected entity, and its heaviest mentioned_with edge.
    const top = (await service.invoke('graph.overview', { limit: 1 })).entities[0]!;
    const near = await service.invoke('graph.neighbors', { entity: top.id, limit: 20 });
    const heaviest = near.edges.filter((c) => c.predicate === 'mentioned_with').sort((a, b) => b.weight - a.weight)[0];
    const validAt = corpus.dayString(Math.floor(corpus.daySpan / 2));
    const queries = Object.fromEntries([
      await time('overview_2000', () => service.invoke('graph.overview', { limit: 2_000 })),
      await time('overview_2000_tools', () => service.invoke('graph.overview', { limit: 2_000, filters: { tools: ['workspace'] } })),
      await time('overview_2000_valid_at', () => service.invoke('graph.overview', { limit: 2_000, filters: { validAt } })),
      await time('neighbors_top', () => service.invoke('graph.neighbors', { entity: top.id })),
      await time('neighbors_top_2_hops', () => service.invoke('graph.neighbors', { entity: top.id, hops: 2 })),
      await time('neighbors_top_origins', () => service.invoke('graph.neighbors', { entity: top.id, filters: { origins: ['owner'] } })),
      await time('search_top', () => service.invoke('graph.search', { text: top.label })),
      await time('explain_heaviest_pair', () => (heaviest ? service.invoke('graph.explain', { claimId: heaviest.id }) : Promise.resolve())),
    ]);
    log(`graph scale: queries (ms) ${JSON.stringify(queries)} (heaviest pair weight ${heaviest?.weight ?? 0})`);

    const note = corpus.note(0).rel;
    fs.appendFileSync(path.join(ws.workspace, note), `- ${corpus.sentence(new Rng(99))}\n- ${corpus.sentence(new Rng(100))}\n`);
    await service.invoke('index.sync', { force: false });
    const update = service.graph.lastUpdate!;
    fs.rmSync(path.join(ws.workspace, corpus.note(1).rel));
    await service.invoke('index.sync', { force: false });
    const removal = service.graph.lastUpdate!;
    log(`graph scale: update after editing one file ${update.durationMs} ms, after deleting one ${removal.durationMs} ms`);
    return {
      scale_files: files,
      scale_bytes: written.bytes,
      scale_first_extract_s: round(first.durationMs / 1000, 2),
      scale_forced_extract_s: round(forced.durationMs / 1000, 2),
      scale_forced_written_mb: forcedMb,
      scale_entities: first.entities,
      scale_claims: first.claims,
      scale_graph_rows: rows,
      scale_graph_tables_mb: Object.fromEntries(sizes.map((r) => [r.name, round(r.bytes / 1e6, 1)])),
      scale_graph_mb: round(graphBytes / 1e6, 1),
      scale_index_mb: round(indexBytes / 1e6, 1),
      scale_update_ms: update.durationMs,
      scale_delete_ms: removal.durationMs,
      scale_query_ms: queries,
    };
  } finally {
    await service.close();
    removeTempWorkspace(ws);
  }
}

// Run alone: `npx tsx scripts/bench/graph.ts [--quick | --daily N]` prints the figures as one JSON line.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const daily = process.argv.indexOf('--daily');
  (daily >= 0 ? runGraphScaleBench(Number(process.argv[daily + 1] ?? 1000)) : runGraphBench(process.argv.includes('--quick')))
    .then((figures) => process.stdout.write(JSON.stringify(figures) + '\n'))
    .catch((error: unknown) => {
      process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 1;
    });
}
