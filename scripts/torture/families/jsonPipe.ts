/**
 * `--json` through a slow pipe: big outputs (an import plan of a generated Claude Code home, ≥ 10 MB in
 * the full run; status of a generated workspace) must arrive whole and parse.
 */
import fs from 'node:fs';
import path from 'node:path';
import { collect, firstLine, runCli, sleep, spawnCli, type Family } from '../harness.js';
import { generatedNotes, sentence } from '../corpus.js';

/** Reads the child's stdout slowly (a consumer like `jq` on a busy machine). */
async function throughSlowPipe(args: string[], env: NodeJS.ProcessEnv): Promise<{ bytes: number; parsed: boolean; code: number | null; stderr: string }> {
  const child = spawnCli(args, env);
  child.stdin!.end();
  child.stdout!.on('data', () => {
    child.stdout!.pause();
    void sleep(3).then(() => child.stdout!.resume());
  });
  const run = await collect(child, Date.now(), 300_000);
  let parsed = false;
  try {
    JSON.parse(run.stdout);
    parsed = true;
  } catch {
    parsed = false;
  }
  return { bytes: Buffer.byteLength(run.stdout), parsed, code: run.code, stderr: run.stderr };
}

export const jsonPipe: Family = {
  name: 'json pipe',
  async run(ctx) {
    const failures: string[] = [];
    const planFiles = ctx.trials(3000, 36_000);
    const ws = ctx.workspace(generatedNotes(ctx.rng, ctx.trials(400, 2500)));
    const claude = path.join(ws.dataDir, 'claude-home');
    for (let i = 0; i < planFiles; i++) {
      const dir = path.join(claude, 'projects', `-generated-p${Math.floor(i / 1000)}`, 'memory'); // ≤ 2,000 files per collection
      if (i % 1000 === 0) fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `note-${String(i).padStart(6, '0')}-${sentence(ctx.rng, 3).replace(/ /g, '-')}.md`), `- ${sentence(ctx.rng)}\n`);
    }
    const index = await runCli(['index', ...ws.at], ws.env, 300_000);
    if (index.code !== 0) failures.push(`index exited ${index.code}: ${firstLine(index.stderr)}`);
    const outputs: Record<string, number> = {};
    const commands: Record<string, string[]> = {
      'import plan': ['import', 'plan', '--source', 'claude-code', '--from', claude, '--json'],
      status: ['status', '--json'],
    };
    for (const [name, args] of Object.entries(commands)) {
      const out = await throughSlowPipe([...args, ...ws.at], ws.env);
      outputs[name] = out.bytes;
      if (out.code !== 0) failures.push(`${name} --json exited ${out.code}: ${firstLine(out.stderr)}`);
      else if (!out.parsed) failures.push(`${name} --json cut short in a pipe: ${out.bytes} bytes do not parse`);
    }
    const figures = Object.fromEntries(Object.entries(outputs).map(([k, v]) => [`${k} MB`, (v / 1_048_576).toFixed(2)]));
    return { trials: Object.keys(commands).length, failures, figures };
  },
};
