/**
 * Damaged index pages: random pages of the index's SQLite file are overwritten, then status,
 * search and index run. None may exit 2 or hang; after them search must find notes again (the
 * damage detected, the file moved aside, the index rebuilt) and the notice is said once.
 * Then damaged pages of the dreaming and agents stores, which cannot be rebuilt: a command
 * that meets them exits 1 naming the file (never 2, never a stack trace), and the file stays.
 */
import fs from 'node:fs';
import path from 'node:path';
import { firstLine, runCli, type Family } from '../harness.js';
import { verdict } from '../verify.js';
import { generatedNotes } from '../corpus.js';

const PAGE = 4096;
const NOTICE = /damaged|corrupt|malformed|rebuil/i;

export const corruption: Family = {
  name: 'corrupt index',
  async run(ctx) {
    const trials = ctx.trials(1, 20);
    const failures: string[] = [];
    let crashes = 0;
    let recovered = 0;
    for (let i = 0; i < trials; i++) {
      const ws = ctx.workspace(generatedNotes(ctx.rng, 200));
      const index = await runCli(['index', ...ws.at], ws.env);
      if (index.code !== 0) {
        failures.push(`trial ${i + 1}: the first index exited ${index.code}: ${firstLine(index.stderr)}`);
        continue;
      }
      const dir = path.join(ws.dataDir, 'index');
      const db = path.join(dir, fs.readdirSync(dir).find((n) => n.endsWith('.sqlite'))!);
      const pages = Math.floor(fs.statSync(db).size / PAGE);
      const fd = fs.openSync(db, 'r+');
      const damaged = ctx.rng.range(1, 8);
      for (let k = 0; k < damaged; k++) {
        const garbage = Buffer.alloc(PAGE);
        for (let j = 0; j < PAGE; j++) garbage[j] = ctx.rng.int(256);
        fs.writeSync(fd, garbage, 0, PAGE, ctx.rng.range(1, Math.max(1, pages - 1)) * PAGE);
      }
      fs.closeSync(fd);
      const steps = [['status'], ['search', 'loopback gateway', '--json'], ['index'], ['search', 'loopback gateway', '--json'], ['status']];
      let notices = 0;
      let last = '';
      for (const args of steps) {
        const run = await runCli([...args, ...ws.at], ws.env, 60_000);
        const v = verdict(run);
        if (v !== 'ok') {
          crashes++;
          failures.push(`trial ${i + 1} (${damaged} pages): ${args[0]} ${v === 'hang' ? 'hung' : `exit ${run.code}: ${firstLine(run.stderr)}`}`);
        }
        if (NOTICE.test(run.stderr) || NOTICE.test(run.stdout.slice(0, 2000))) notices++;
        if (args[0] === 'search') last = run.code === 0 ? run.stdout : '';
      }
      let hits = 0;
      try {
        // `reverie search --json` prints the array of results.
        const parsed = JSON.parse(last) as unknown;
        hits = Array.isArray(parsed) ? parsed.length : 0;
      } catch {
        hits = 0;
      }
      if (hits > 0) recovered++;
      else failures.push(`trial ${i + 1} (${damaged} pages): search finds nothing after status, search and index (not rebuilt)`);
      if (notices > 1) failures.push(`trial ${i + 1}: the damage notice was repeated in ${notices} commands (say it once)`);
    }
    const stores = await damagedStoreTrials(ctx, failures);
    return { trials: trials + stores.trials, failures, figures: { 'exit 2 or hang': crashes + stores.crashes, recovered, 'store named': stores.named } };
  },
};

/** Random non-header pages of the dreaming or agents store overwritten; status, dream runs and agents list run on it. */
async function damagedStoreTrials(ctx: Parameters<Family['run']>[0], failures: string[]): Promise<{ trials: number; crashes: number; named: number }> {
  const trials = ctx.trials(0, 6); // the quick run leaves store damage to core/test/sideStoreDamage.test.ts
  let crashes = 0;
  let named = 0;
  for (let i = 0; i < trials; i++) {
    const ws = ctx.workspace(generatedNotes(ctx.rng, 40));
    const setup = [['index'], ['search', 'loopback gateway'], ['agents', 'add', 'scribe'], ['agents', 'add', 'reader'], ['dream']];
    for (const args of setup) await runCli([...args, ...ws.at], ws.env, 60_000);
    const store = i % 2 === 0 ? 'dreaming' : 'agents';
    const dir = path.join(ws.dataDir, store);
    const file = path.join(dir, fs.readdirSync(dir).find((n) => n.endsWith('.sqlite'))!);
    const pages = Math.floor(fs.statSync(file).size / PAGE);
    const fd = fs.openSync(file, 'r+');
    // Small stores (a page a table): up to half their pages, so a command usually meets one.
    for (let k = 0, n = ctx.rng.range(1, Math.max(2, Math.floor(pages / 2))); k < n; k++) fs.writeSync(fd, Buffer.alloc(PAGE, ctx.rng.int(256)), 0, PAGE, ctx.rng.range(1, Math.max(1, pages - 1)) * PAGE);
    fs.closeSync(fd);
    for (const args of [['status'], ['dream', 'runs'], ['agents', 'list']]) {
      const run = await runCli([...args, ...ws.at], ws.env, 60_000);
      const v = verdict(run);
      if (v !== 'ok') {
        crashes++;
        failures.push(`store trial ${i + 1} (${store}): ${args.join(' ')} ${v === 'hang' ? 'hung' : `exit ${run.code}: ${firstLine(run.stderr)}`}`);
      } else if (run.code !== 0) {
        if (run.stderr.includes(`${file} is damaged`)) named++;
        else failures.push(`store trial ${i + 1} (${store}): ${args.join(' ')} exit ${run.code} without naming ${file}: ${firstLine(run.stderr)}`);
      }
    }
    if (!fs.existsSync(file)) failures.push(`store trial ${i + 1} (${store}): the damaged store was removed`);
  }
  return { trials, crashes, named };
}
