/**
 * Transcript ingestion figures: 1,000 generated Claude Code transcripts (~100 MB of JSONL)
 * ingested through the product's own `sessions.ingest`, a no-change re-run, and one 100 MB
 * transcript's effect on resident memory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MemoryService } from '../../core/src/engine/memoryService.js';
import { resolveExistingWorkspace } from '../../core/src/workspace/resolveWorkspace.js';
import { makeTempWorkspace, removeTempWorkspace } from './engine.js';
import { Rng } from './prng.js';
import { log, round } from './stats.js';

const MB = 1024 * 1024;
const WORDS = (
  'ledger migration backfill invoice currency rounding cutoff timezone replica postgres index vacuum deploy rollback ' +
  'schema retry queue worker cache token session review release hotfix staging canary metrics alert dashboard ' +
  'budget travel dentist lisbon heron garden bicycle novel podcast recipe espresso marathon weekend family'
).split(' ');

export interface SessionsFigures {
  sessions_files: number;
  sessions_mb: number;
  sessions_ingest_s: number;
  sessions_noop_s: number;
  sessions_messages: number;
  sessions_rss_growth_100mb_mb: number;
  sessions_large_ingest_s: number;
}

function sentence(rand: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(rand() * WORDS.length)]!);
  return out.join(' ');
}

/** One Claude Code transcript of about `bytes`, with user/assistant turns and tool results (not indexed). */
function writeTranscript(file: string, sessionId: string, bytes: number, seed: number): number {
  const rng = new Rng(seed);
  const rand = (): number => rng.next();
  const fd = fs.openSync(file, 'w');
  let written = 0;
  let n = 0;
  const base = Date.UTC(2026, 2, 1) + seed * 60_000;
  const line = (obj: unknown): void => {
    const s = JSON.stringify(obj) + '\n';
    fs.writeSync(fd, s);
    written += Buffer.byteLength(s);
  };
  while (written < bytes) {
    const ts = new Date(base + n * 1000).toISOString();
    const common = { isSidechain: false, userType: 'external', cwd: '/home/dana/src/ledgerd', sessionId, version: '2.1.80', timestamp: ts };
    line({ ...common, type: 'user', uuid: `u${n}`, message: { role: 'user', content: `${sentence(rand, 12)}?` } });
    line({ ...common, type: 'assistant', uuid: `a${n}`, message: { role: 'assistant', content: [{ type: 'text', text: sentence(rand, 40) }, { type: 'tool_use', id: `t${n}`, name: 'Read', input: { file_path: '/home/dana/src/ledgerd/x.go' } }] } });
    line({ ...common, type: 'user', uuid: `r${n}`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${n}`, content: sentence(rand, 120) }] } });
    line({ ...common, type: 'assistant', uuid: `b${n}`, message: { role: 'assistant', content: [{ type: 'text', text: sentence(rand, 30) }] } });
    n++;
  }
  fs.closeSync(fd);
  return written;
}

export async function runSessionsBench(quick: boolean): Promise<SessionsFigures> {
  const ws = makeTempWorkspace('sessions');
  try {
    const home = path.join(ws.root, 'claude-home');
    const files = quick ? 100 : 1000;
    const perFile = 100 * 1024;
    let total = 0;
    for (let i = 0; i < files; i++) {
      const dir = path.join(home, 'projects', `-home-dana-p${i % 20}`);
      fs.mkdirSync(dir, { recursive: true });
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      total += writeTranscript(path.join(dir, `${id}.jsonl`), id, perFile, i + 1);
    }
    // Old enough to count as finished transcripts.
    const old = new Date(Date.now() - 3_600_000);
    for (const dir of fs.readdirSync(path.join(home, 'projects'))) {
      for (const f of fs.readdirSync(path.join(home, 'projects', dir))) fs.utimesSync(path.join(home, 'projects', dir, f), old, old);
    }
    log(`  sessions: generated ${files} transcripts, ${(total / MB).toFixed(1)} MB`);
    const service = new MemoryService({ dataDir: ws.dataDir, workspace: resolveExistingWorkspace(ws.workspace) });
    let t = performance.now();
    const first = await service.invoke('sessions.ingest', { homes: { 'claude-code': home } });
    const ingestS = (performance.now() - t) / 1000;
    t = performance.now();
    await service.invoke('sessions.ingest', { homes: { 'claude-code': home } });
    const noopS = (performance.now() - t) / 1000;
    log(`  sessions: ingest ${ingestS.toFixed(2)} s (${first.messages} messages, parse+index ${(first.durationMs / 1000).toFixed(2)} s), no-change re-run ${noopS.toFixed(3)} s`);

    // One 100 MB transcript: resident memory growth while it is ingested.
    const bigHome = path.join(ws.root, 'claude-big');
    const bigDir = path.join(bigHome, 'projects', '-big');
    fs.mkdirSync(bigDir, { recursive: true });
    writeTranscript(path.join(bigDir, 'big.jsonl'), 'big-session', quick ? 20 * MB : 100 * MB, 4242);
    fs.utimesSync(path.join(bigDir, 'big.jsonl'), old, old);
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    t = performance.now();
    await service.invoke('sessions.ingest', { homes: { 'claude-code': bigHome } });
    const bigS = (performance.now() - t) / 1000;
    clearInterval(timer);
    peak = Math.max(peak, process.memoryUsage().rss);
    log(`  sessions: one ${quick ? 20 : 100} MB transcript in ${bigS.toFixed(2)} s, resident memory +${((peak - rssBefore) / MB).toFixed(1)} MB`);
    await service.close();
    return {
      sessions_files: files,
      sessions_mb: round(total / MB, 1),
      sessions_ingest_s: round(ingestS, 2),
      sessions_noop_s: round(noopS, 3),
      sessions_messages: first.messages,
      sessions_rss_growth_100mb_mb: round((peak - rssBefore) / MB, 1),
      sessions_large_ingest_s: round(bigS, 2),
    };
  } finally {
    removeTempWorkspace(ws);
  }
}
