import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { REPO_ROOT } from './paths.js';

export interface ServeInfo {
  url: string;
  launchUrl: string;
  workspace: string;
  pid: number;
}

export interface RunningServe extends ServeInfo {
  token: string;
  /** Milliseconds from spawning the process to its first stdout line (server listening). */
  startupMs: number;
  stop(): Promise<void>;
}

const STARTUP_TIMEOUT_MS = 45_000;

/** Spawns `reverie serve --json` on a free port and waits for the JSON line with its URLs. */
export async function startServe(workspace: string, dataDir: string): Promise<RunningServe> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['bin/reverie.js', 'serve', '--json', '--port', '0', '--workspace', workspace, '--data-dir', dataDir],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-8000);
  });

  const firstLine = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => fail(new Error(`reverie serve printed nothing within ${STARTUP_TIMEOUT_MS} ms`)), STARTUP_TIMEOUT_MS);
    function fail(error: Error): void {
      clearTimeout(timer);
      lines.close();
      child.kill('SIGKILL');
      reject(new Error(`${error.message}\n--- stderr ---\n${stderr}`));
    }
    lines.once('line', (line) => {
      clearTimeout(timer);
      resolve(line);
    });
    child.once('exit', (code, signal) => fail(new Error(`reverie serve exited early (code ${code}, signal ${signal})`)));
    child.once('error', (error) => fail(error));
  });
  const startupMs = performance.now() - started;

  let info: ServeInfo;
  try {
    info = JSON.parse(firstLine) as ServeInfo;
  } catch {
    child.kill('SIGKILL');
    throw new Error(`reverie serve --json printed a first line that is not JSON: ${firstLine}\n${stderr}`);
  }
  const token = new URL(info.launchUrl).hash.replace(/^#/, '');
  return {
    ...info,
    token: new URLSearchParams(token).get('token') ?? '',
    startupMs,
    stop: () => stopProcess(child),
  };
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
