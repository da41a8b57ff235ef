/**
 * kill -9 of a long-lived engine writer (the editor's save, files.write; an agent's store,
 * memory.store) at random points: every file is its before bytes, an intended after, or before
 * plus complete lines; the database opens; `status` exits 0.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRoot, spawnTracked, sleep, type Family, type TortureContext } from '../harness.js';
import { checkAfterKill } from '../killCheck.js';
import { snapshotMarkdown, tornFiles } from '../verify.js';
import { generatedNotes } from '../corpus.js';

const writer = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'writerChild.ts');
const sha = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

function killWriter(name: string, mode: 'save' | 'store'): Family {
  return {
    name,
    async run(ctx: TortureContext) {
      const trials = ctx.trials(2, 100);
      const ws = ctx.workspace(generatedNotes(ctx.rng, 20));
      const log = path.join(ws.dataDir, 'intended.log');
      const failures: string[] = [];
      let kills = 0;
      for (let i = 0; i < trials; i++) {
        fs.writeFileSync(log, '');
        const before = snapshotMarkdown(ws.root);
        const child = spawnTracked(process.execPath, ['--import', 'tsx', writer, mode, ws.root, ws.dataDir, log, String(ctx.seed + i)], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'ignore'] });
        await new Promise<void>((resolve) => {
          child.stdout!.once('data', () => resolve());
          child.once('close', () => resolve());
        });
        await sleep(ctx.rng.range(5, 1500));
        child.kill('SIGKILL');
        await new Promise((r) => child.once('close', r));
        kills++;
        const now = snapshotMarkdown(ws.root);
        const intended = new Set(fs.readFileSync(log, 'utf8').split('\n').filter(Boolean));
        const whole = (rel: string, bytes: Buffer) => intended.has(`${rel}\t${sha(bytes)}`);
        const unexplained = new Map([...now].filter(([rel, bytes]) => !whole(rel, bytes)));
        for (const t of tornFiles(before, unexplained)) if (!t.endsWith('(vanished)')) failures.push(`kill ${i + 1}: torn file ${t}`);
        for (const rel of before.keys()) if (!now.has(rel)) failures.push(`kill ${i + 1}: ${rel} vanished`);
        failures.push(...(await checkAfterKill(ws, snapshotMarkdown(ws.root), `kill ${i + 1}`, false)));
      }
      return { trials, failures, figures: { kills } };
    },
  };
}

export const killSave = killWriter('kill editor save', 'save');
export const killStore = killWriter('kill agent store', 'store');
