/**
 * An appender racing every writer: sweeps that really promote and editor saves (files.write)
 * run while a separate process appends lines; at the end every appended line must still be there.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstLine, repoRoot, spawnTracked, runCli, sleep, type Family } from '../harness.js';
import { ANY_RECALL, seedPromotableFacts, withService } from '../seed.js';
import { lostLines, snapshotMarkdown, tornFiles } from '../verify.js';
import { generatedNotes } from '../corpus.js';

const appender = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'appenderChild.ts');

export const racingAppend: Family = {
  name: 'racing append',
  async run(ctx) {
    const sweeps = ctx.trials(3, 100);
    const ws = ctx.workspace(generatedNotes(ctx.rng, 30));
    const log = path.join(ws.dataDir, 'appended.log');
    fs.writeFileSync(log, '');
    // The appender grows MEMORY.md past the default 10,000-character budget within a few dozen
    // rounds; after that every sweep refuses to write and nothing races. A large budget keeps the
    // sweeps writing for all rounds.
    await withService(ws, (service) => service.invoke('settings.set', { patch: { dreaming: { memoryBudgetChars: 1_000_000 } } }));
    const child = spawnTracked(process.execPath, ['--import', 'tsx', appender, ws.root, log, String(ctx.seed)], { cwd: repoRoot, stdio: 'ignore' });
    const failures: string[] = [];
    const saved: { rel: string; line: string }[] = [];
    let promotedSweeps = 0;
    let refusedRewrites = 0;
    const idleReasons = new Map<string, number>();
    let refusedSaves = 0;
    try {
      await sleep(1500); // the appender's tsx start
      for (let i = 0; i < sweeps; i++) {
        await seedPromotableFacts(ws);
        const pauseMs = ctx.rng.chance(0.5) ? ctx.rng.range(50, 800) : 0;
        const env = { ...ws.env, REVERIE_TEST_PAUSE_BEFORE_RENAME_MS: String(pauseMs) };
        const sweep = await runCli(['dream', '--json', ...ANY_RECALL, ...ws.at], env, 120_000);
        if (sweep.code !== 0) failures.push(`sweep ${i + 1}: exit ${sweep.code}: ${firstLine(sweep.stderr)}`);
        else {
          const run = JSON.parse(sweep.stdout) as { status: string; reason?: string | null; promoted: unknown[]; writes: Array<{ outcome: string; reason: string | null }> };
          const refused = run.writes.filter((w) => w.outcome === 'aborted');
          if (run.promoted.length > 0) promotedSweeps++;
          // The file changed between the sweep's read and its rename: the race, caught; the rewrite was abandoned.
          else if (refused.length > 0) refusedRewrites++;
          // A sweep that wrote nothing and was refused nothing says why.
          else {
            const why = `${run.status}: ${(run.reason ?? 'nothing passed').slice(0, 80)}`;
            idleReasons.set(why, (idleReasons.get(why) ?? 0) + 1);
          }
        }
        const save = await editorSave(ws, ctx.rng.chance(0.5) ? 'MEMORY.md' : 'USER.md', `- saved by the editor in round ${i + 1}`, ctx.rng.range(0, 300));
        if (save) saved.push(save);
        else refusedSaves++;
      }
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('close', r));
    }
    const appended = fs
      .readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => ({ rel: l.split('\t')[0]!, line: l.split('\t')[1]! }));
    let lost = 0;
    for (const rel of new Set([...appended, ...saved].map((a) => a.rel))) {
      const content = fs.readFileSync(path.join(ws.root, rel), 'utf8');
      const missing = lostLines([...appended, ...saved].filter((a) => a.rel === rel).map((a) => a.line), content);
      lost += missing.length;
      if (missing.length) failures.push(`${rel}: ${missing.length} lost lines (first: "${missing[0]}")`);
    }
    for (const torn of tornFiles(new Map(), snapshotMarkdown(ws.root))) failures.push(`torn file ${torn}`);
    for (const [reason, n] of idleReasons) console.log(`  racing append: ${n} sweep(s) wrote nothing (${reason})`);
    return { trials: sweeps, failures, figures: { sweeps, 'promoting sweeps': promotedSweeps, 'rewrites refused (file changed)': refusedRewrites, appended: appended.length, 'lost lines': lost, 'saves refused': refusedSaves } };
  },
};

/** An editor's save: read the file, type for a while, save with the hash it started from. */
async function editorSave(ws: Parameters<typeof withService>[0], rel: string, line: string, typingMs: number): Promise<{ rel: string; line: string } | null> {
  return withService(ws, async (service) => {
    const text = fs.readFileSync(path.join(ws.root, rel), 'utf8');
    const expectedSha256 = crypto.createHash('sha256').update(text).digest('hex');
    await sleep(typingMs);
    try {
      await service.invoke('files.write', { path: rel, text: `${text}${line}\n`, expectedSha256 });
      return { rel, line };
    } catch {
      return null; // refused: the file changed since it was read (a conflict the editor shows)
    }
  });
}
