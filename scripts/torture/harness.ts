/** What every torture family shares: the seeded PRNG, the temp root, real `reverie` processes. */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Rng } from '../bench/prng.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = path.join(repoRoot, 'bin', 'reverie.js');

export interface FamilyResult {
  trials: number;
  /** One line per failure: what broke and where (the evidence for a fix). */
  failures: string[];
  figures: Record<string, number | string>;
}

export interface Family {
  name: string;
  run(ctx: TortureContext): Promise<FamilyResult>;
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
}

/** A trial workspace and its data folder, both under the run's temp root. */
export interface TrialWorkspace {
  root: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  at: string[];
}

export class TortureContext {
  readonly rng: Rng;
  readonly root: string;
  private count = 0;

  constructor(
    readonly seed: number,
    readonly quick: boolean,
  ) {
    this.rng = new Rng(seed);
    this.root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-torture-')));
  }

  /** `quick` trials in --quick, `full` in the full run. */
  trials(quick: number, full: number): number {
    return this.quick ? quick : full;
  }

  /**
   * Whether a kill family has done enough: `quick` trials in --quick; in the full run, `fullKills`
   * kills (a trial whose command finishes before its kill is not one), at most twice as many trials.
   */
  enoughKills(trials: number, kills: number, quick: number, fullKills = 100): boolean {
    return this.quick ? trials >= quick : kills >= fullKills || trials >= 2 * fullKills;
  }

  workspace(files: Record<string, string | Buffer> = {}): TrialWorkspace {
    const base = path.join(this.root, `t${++this.count}`);
    const root = path.join(base, 'workspace');
    const dataDir = path.join(base, 'data');
    fs.mkdirSync(root, { recursive: true });
    fs.mkdirSync(path.join(dataDir, 'home'), { recursive: true });
    for (const [rel, content] of Object.entries(files)) writeFile(root, rel, content);
    const env = { ...process.env, REVERIE_DATA_DIR: dataDir, REVERIE_WORKSPACE: '', HOME: path.join(dataDir, 'home'), NO_COLOR: '1' };
    return { root, dataDir, env, at: ['--workspace', root, '--data-dir', dataDir] };
  }

  /** Every child still running is killed first (an appender left alive would keep writing into the root). */
  cleanup(): void {
    for (const child of live) child.kill('SIGKILL');
    fs.rmSync(this.root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}

export function writeFile(root: string, rel: string, content: string | Buffer): void {
  const abs = path.join(root, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
}

const live = new Set<ChildProcess>();

/** Starts a child process the run kills if it is stopped (SIGINT, SIGTERM) before the child ends. */
export function spawnTracked(command: string, args: string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, options);
  live.add(child);
  child.once('close', () => live.delete(child));
  return child;
}

/** Starts `reverie …` (bin/reverie.js picks the built out/ when fresh, else the sources). */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawnTracked(process.execPath, [bin, ...args], { cwd: repoRoot, env, stdio: ['pipe', 'pipe', 'pipe'] });
}

/** Runs `reverie …` to the end; after `timeoutMs` it is killed and reported as timed out (a hang). */
export function runCli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000, killAfterMs?: number): Promise<CliRun> {
  const started = Date.now();
  const child = spawnCli(args, env);
  child.stdin!.end();
  return collect(child, started, timeoutMs, killAfterMs);
}

export function collect(child: ChildProcess, started: number, timeoutMs: number, killAfterMs?: number): Promise<CliRun> {
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    child.stdout!.on('data', (d: Buffer) => out.push(d));
    child.stderr!.on('data', (d: Buffer) => err.push(d));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    const killer = killAfterMs === undefined ? null : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (killer) clearTimeout(killer);
      resolve({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), ms: Date.now() - started, timedOut });
    });
  });
}

export function firstLine(text: string): string {
  return (text.split('\n').find((l) => l.trim() !== '') ?? '').slice(0, 160);
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
