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
    const ws = ctx.workspace(generatedNotes(ctx.rng, 40));
    const failures: string[] = [];
    let kills = 0;
    let inWindow = 0;
    let rollbacks = 0;
    let trials = 0;
    for (let i = 0; !ctx.enoughKills(i, kills, 3); i++, trials++) {
      await seedPromotableFacts(ws);
      const before = snapshotMarkdown(ws.root);
      const pauseMs = i % 2 === 0 ? ctx.rng.range(300, 1200) : 0; // every other kill aims at the write window
      if (pauseMs > 0) inWindow++;
      const env = { ...ws.env, REVERIE_TEST_PAUSE_BEFORE_RENAME_MS: String(pauseMs) };
      const earlier = await runIds(ws);
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
      failures.push(...(await checkRollback(ws, before, label, earlier)));
    }
    return { trials, failures, figures: { kills, 'in write window': inWindow, rollbacks } };
  },
};

/** Lines of MEMORY.md/USER.md that are there now and were not before (what the killed run added). */
function addedLines(ws: TrialWorkspace, before: Snapshot): string[] {
  return CURATED.flatMap((rel) => {
    const abs = path.join(ws.root, rel);
    if (!fs.existsSync(abs)) return [];
    const old = new Set((before.get(rel)?.toString('utf8') ?? '').split('\n'));
    return fs.readFileSync(abs, 'utf8').split('\n').filter((l) => l.trim() !== '' && !old.has(l));
  });
}

/** The ids of the runs recorded so far. */
async function runIds(ws: TrialWorkspace): Promise<Set<string>> {
  const runs = await runCli(['dream', 'runs', '--json', ...ws.at], ws.env);
  if (runs.code !== 0) throw new Error(`dream runs exited ${runs.code}: ${firstLine(runs.stderr)}`);
  return new Set((JSON.parse(runs.stdout) as { runs: { id: string }[] }).runs.map((r) => r.id));
}

/**
 * The killed run (the one not among `earlier`): rollback restores MEMORY.md/USER.md exactly, or
 * refuses and says why. A refusal is tried again after the next sweep, when it must remove what the
 * run added. (Picking "the newest run" instead would, when the kill came before the run was
 * recorded, roll back the previous trial's finished run and call that a false rollback.)
 */
async function checkRollback(ws: TrialWorkspace, before: Snapshot, label: string, earlier: Set<string>): Promise<string[]> {
  const killed = [...(await runIds(ws))].find((id) => !earlier.has(id));
  if (!killed) return []; // killed before the run was recorded: nothing to undo
  const rollback = await runCli(['dream', '--rollback', killed, '--json', ...ws.at], ws.env);
  if (rollback.code === 2 || rollback.timedOut) return [`${label}: rollback crashed or hung (exit ${rollback.code}): ${firstLine(rollback.stderr)}`];
  if (rollback.code !== 0) {
    if (!rollback.stderr.trim()) return [`${label}: rollback refused without a reason`];
    const added = addedLines(ws, before);
    await runCli(['dream', '--json', ...ANY_RECALL, ...ws.at], ws.env);
    const retry = await runCli(['dream', '--rollback', killed, '--json', ...ws.at], ws.env);
    if (retry.code === 2 || retry.timedOut) return [`${label}: rollback after the next sweep crashed or hung: ${firstLine(retry.stderr)}`];
    if (retry.code !== 0) return retry.stderr.trim() ? [] : [`${label}: rollback after the next sweep refused without a reason`];
    const kept = added.filter((line) => addedLines(ws, before).includes(line));
    return kept.length ? [`${label}: false "rolled back" after the next sweep: ${kept.length} lines of run ${killed} still in MEMORY.md/USER.md`] : [];
  }
  const wrong = CURATED.filter((rel) => {
    const was = before.get(rel);
    const abs = path.join(ws.root, rel);
    const is = fs.existsSync(abs) ? fs.readFileSync(abs) : undefined;
    return !(was === undefined ? is === undefined : is?.equals(was));
  });
  if (wrong.length === 0) return [];
  const said = (JSON.parse(rollback.stdout) as { rolledBack?: { files?: { file: string; mode: string }[] } }).rolledBack?.files ?? [];
  const modes = said.map((f) => `${f.file} ${f.mode}`).join(', ') || 'no files';
  return [`${label}: false "rolled back": ${wrong.join(', ')} not restored (run ${killed}; the rollback said: ${modes})`];
}
