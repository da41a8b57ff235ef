/**
 * kill -9 of `reverie dream` at random points, half of them inside the write window (the
 * pre-rename test pause); then the killed run's rollback must restore exactly or refuse with a reason.
 */
import fs from 'node:fs';
import path from 'node:path';
import { firstLine, runCli, type Family, type TrialWorkspace } from '../harness.js';
import { checkAfterKill } from '../killCheck.js';
import { ANY_RECALL, seedPromotableFacts } from '../seed.js';
import { snapshotMarkdown, type Snapshot } from '../verify.js';
import { generatedNotes } from '../corpus.js';

const CURATED = ['MEMORY.md', 'USER.md'];

export const killDream: Family = {
  name: 'kill dream',
  async run(ctx) {
    const trials = ctx.trials(3, 100);
    const ws = ctx.workspace(generatedNotes(ctx.rng, 40));
    const failures: string[] = [];
    let kills = 0;
    let inWindow = 0;
    let rollbacks = 0;
    for (let i = 0; i < trials; i++) {
      await seedPromotableFacts(ws);
      const before = snapshotMarkdown(ws.root);
      const pauseMs = i % 2 === 0 ? ctx.rng.range(300, 1200) : 0; // every other kill aims at the write window
      if (pauseMs > 0) inWindow++;
      const env = { ...ws.env, REVERIE_TEST_PAUSE_BEFORE_RENAME_MS: String(pauseMs) };
      const run = await runCli(['dream', '--json', ...ANY_RECALL, ...ws.at], env, 120_000, ctx.rng.range(900, 2300 + pauseMs));
      const label = `kill ${i + 1}${pauseMs ? ` (pause ${pauseMs} ms)` : ''}`;
      if (run.signal !== 'SIGKILL') {
        // The sweep finished first: it must have succeeded or refused with a reason, never crashed.
        if (run.code === 2 || run.timedOut) failures.push(`${label}: the sweep ${run.timedOut ? 'hung' : 'crashed'}: ${firstLine(run.stderr)}`);
        continue;
      }
      kills++;
      failures.push(...(await checkAfterKill(ws, before, label, true)));
      rollbacks++;
      failures.push(...(await checkRollback(ws, before, label)));
    }
    return { trials, failures, figures: { kills, 'in write window': inWindow, rollbacks } };
  },
};

/** The newest run is the killed one: rollback restores MEMORY.md/USER.md exactly, or refuses and says why. */
async function checkRollback(ws: TrialWorkspace, before: Snapshot, label: string): Promise<string[]> {
  const runs = await runCli(['dream', 'runs', '--json', ...ws.at], ws.env);
  if (runs.code !== 0) return [`${label}: dream runs exited ${runs.code}: ${firstLine(runs.stderr)}`];
  const newest = (JSON.parse(runs.stdout) as { runs: { id: string; startedAt: string }[] }).runs[0];
  if (!newest) return []; // killed before the run was recorded: nothing to undo
  const rollback = await runCli(['dream', '--rollback', newest.id, '--json', ...ws.at], ws.env);
  if (rollback.code === 2 || rollback.timedOut) return [`${label}: rollback crashed or hung (exit ${rollback.code}): ${firstLine(rollback.stderr)}`];
  if (rollback.code !== 0) return rollback.stderr.trim() ? [] : [`${label}: rollback refused without a reason`];
  const wrong = CURATED.filter((rel) => {
    const was = before.get(rel);
    const abs = path.join(ws.root, rel);
    const is = fs.existsSync(abs) ? fs.readFileSync(abs) : undefined;
    return !(was === undefined ? is === undefined : is?.equals(was));
  });
  return wrong.length ? [`${label}: false "rolled back": ${wrong.join(', ')} not restored (run ${newest.id})`] : [];
}
