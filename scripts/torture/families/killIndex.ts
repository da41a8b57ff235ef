/** kill -9 of `reverie index` at random points: no note byte changes, the index opens again. */
import { firstLine, runCli, type Family } from '../harness.js';
import { checkAfterKill } from '../killCheck.js';
import { snapshotMarkdown } from '../verify.js';
import { generatedNotes } from '../corpus.js';

export const killIndex: Family = {
  name: 'kill index',
  async run(ctx) {
    const ws = ctx.workspace(generatedNotes(ctx.rng, ctx.quick ? 300 : 1500));
    const failures: string[] = [];
    let kills = 0;
    // Kill points are drawn across one measured full rebuild, so they land inside the work (a fixed
    // window missed it once the built engine indexed the workspace in under a second).
    const started = Date.now();
    const full = await runCli(['index', '--force', ...ws.at], ws.env, 120_000);
    if (full.code !== 0) failures.push(`the measuring index --force exited ${full.code}: ${firstLine(full.stderr)}`);
    const fullMs = Math.max(300, Date.now() - started);
    let trials = 0;
    for (let i = 0; !ctx.enoughKills(i, kills, 2); i++, trials++) {
      const before = snapshotMarkdown(ws.root);
      const args = ctx.rng.chance(0.7) ? ['index', '--force', ...ws.at] : ['index', ...ws.at];
      // The measuring rebuild ran on a cold machine; later ones are quicker, so kill points stay in its first 80 %.
      const run = await runCli(args, ws.env, 120_000, ctx.rng.range(50, Math.max(100, Math.round(fullMs * 0.8))));
      if (run.signal === 'SIGKILL') kills++;
      else if (run.code !== 0) failures.push(`run ${i + 1}: index finished with exit ${run.code}${run.timedOut ? ' (hang)' : ''}: ${firstLine(run.stderr)}`);
      failures.push(...(await checkAfterKill(ws, before, `kill ${i + 1}`, false)));
    }
    return { trials, failures, figures: { kills } };
  },
};
