import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const bin = path.join(repoRoot, 'bin', 'reverie.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function cliEnv(dataDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, REVERIE_FROM_SOURCE: '1', REVERIE_DATA_DIR: dataDir, REVERIE_WORKSPACE: '', HOME: path.join(dataDir, 'home'), NO_COLOR: '1', ...extra };
}

/** Runs `reverie …` as a person would, from source, with no TTY. */
export function runCli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`reverie ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts `reverie serve --json` and resolves with its first stdout line once it is listening. */
export function startServe(args: string[], env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; info: { url: string; launchUrl: string; pid: number } }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'serve', '--json', '--port', '0', ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const line = stdout.split('\n')[0];
      if (stdout.includes('\n') && line) {
        try {
          resolve({ child, info: JSON.parse(line) });
        } catch (error) {
          reject(error);
        }
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited early with ${code}: ${stderr}`)));
  });
}

export function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Runs `work` with this process's stdout captured: what it wrote, and its result. */
export async function capturingStdout<T>(work: () => Promise<T>): Promise<{ out: string; result: T }> {
  let out = '';
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }) as typeof process.stdout.write;
  try {
    const result = await work();
    return { out, result };
  } finally {
    process.stdout.write = write;
  }
}
