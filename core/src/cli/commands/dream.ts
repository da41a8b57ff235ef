import type { DreamRun, DreamRunSummary, DreamThresholds } from '../../contract/index.js';
import { ReverieError } from '../../platform/errors.js';
import { openService, type CliContext } from '../context.js';
import { printJson } from '../output.js';

const USAGE =
  'Usage: reverie dream [--dry-run] [--backfill PATH] [--rollback RUN] [--min-score X] [--min-recall-count N] [--min-unique-queries N] [--json]\n' +
  '       reverie dream runs [--json] | dream show <runId> [--json] | dream review <runId> <candidateKey> approve|reject [--json]';

/** `reverie dream …`: one sweep now (never a scheduled one), the runs, review and rollback. */
export async function dreamCommand(ctx: CliContext): Promise<number> {
  const [sub, ...args] = ctx.positionals;
  if (sub !== undefined && !['runs', 'show', 'review'].includes(sub)) throw new ReverieError('invalid-input', `Unknown dream command "${sub}".\n${USAGE}`);
  const thresholds = readThresholds(ctx);
  const service = await openService(ctx);
  try {
    if (sub === 'runs') {
      const { runs, schedule } = await service.invoke('dream.runs', { limit: 50 });
      if (ctx.options.json) printJson({ runs, schedule });
      else printRuns(runs, schedule.time);
      return 0;
    }
    if (sub === 'show' || sub === 'review') {
      const [runId, candidateKey, decision] = args;
      if (!runId) throw new ReverieError('invalid-input', USAGE);
      let run: DreamRun;
      if (sub === 'show') run = await service.invoke('dream.get', { runId });
      else {
        if (!candidateKey || (decision !== 'approve' && decision !== 'reject')) throw new ReverieError('invalid-input', USAGE);
        run = await service.invoke('dream.review', { runId, candidateKey, decision });
      }
      if (ctx.options.json) printJson(withRunId(run));
      else printRun(run);
      return 0;
    }
    if (ctx.options.rollback) {
      const run = await service.invoke('dream.rollback', { runId: ctx.options.rollback });
      if (ctx.options.json) printJson(withRunId(run));
      else process.stdout.write(`Rolled back ${run.id} (${run.rolledBack?.mode === 'restored' ? 'files restored from their pre-images' : "the run's lines removed; later edits kept"}).\n`);
      return 0;
    }
    // Without a host keeping the index fresh, catch up first so the sweep sees today's notes.
    if (!service.lock.readHolder()) await service.invoke('index.sync', { force: false });
    const run = await service.invoke('dream.run', {
      dryRun: ctx.options.dryRun,
      ...(ctx.options.backfill ? { backfill: ctx.options.backfill } : {}),
      ...(Object.keys(thresholds).length > 0 ? { thresholds } : {}),
    });
    if (ctx.options.json) printJson(withRunId(run));
    else printRun(run);
    return run.status === 'failed' ? 1 : 0;
  } finally {
    await service.close();
  }
}

/** Scripts read `runId` first, as the issue's JSON shape names it; the record keeps its typed `id`. */
function withRunId(run: DreamRun): DreamRun & { runId: string } {
  return { runId: run.id, ...run };
}

function readThresholds(ctx: CliContext): DreamThresholds {
  const t: DreamThresholds = {};
  const number = (flag: string, raw: string | undefined, integer: boolean, max: number): number | undefined => {
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < 0 || n > max || (integer && !Number.isInteger(n))) {
      throw new ReverieError('invalid-input', `${flag} must be ${integer ? 'a whole number' : 'a number'} from 0 to ${max} (got "${raw}").`);
    }
    return n;
  };
  const minScore = number('--min-score', ctx.options.minScore, false, 1);
  const minRecallCount = number('--min-recall-count', ctx.options.minRecallCount, true, 1000);
  const minUniqueQueries = number('--min-unique-queries', ctx.options.minUniqueQueries, true, 1000);
  if (minScore !== undefined) t.minScore = minScore;
  if (minRecallCount !== undefined) t.minRecallCount = minRecallCount;
  if (minUniqueQueries !== undefined) t.minUniqueQueries = minUniqueQueries;
  return t;
}

function printRuns(runs: DreamRunSummary[], schedule: string | null): void {
  process.stdout.write(schedule ? `Daily sweep at ${schedule} (local time) while a host runs.\n` : 'No daily sweep scheduled.\n');
  if (runs.length === 0) process.stdout.write('No dream runs yet. Run one with `reverie dream` (or `--dry-run` first).\n');
  for (const r of runs) {
    const flags = [r.dryRun ? 'dry run' : null, r.rolledBack ? 'rolled back' : null].filter(Boolean).join(', ');
    process.stdout.write(`${r.id}  ${r.startedAt}  ${r.status.padEnd(13)} ${r.promoted} promoted, ${r.proposed} proposed, ${r.candidates} candidates${flags ? ` (${flags})` : ''}${r.reason ? `\n    ${r.reason}` : ''}\n`);
  }
}

function printRun(run: DreamRun): void {
  const out = (s: string) => process.stdout.write(`${s}\n`);
  out(`${run.id}: ${run.status}${run.dryRun ? ' (dry run: nothing written)' : ''}${run.reason ? ` — ${run.reason}` : ''}`);
  if (run.backfill) out(`Backfill of ${run.backfill.path}: ${run.backfill.days} day(s).`);
  const { light, rem, deep } = run.phases;
  out(`Light: ${light.gathered} gathered, ${light.duplicates} near-duplicates folded. REM: ${rem.themes.filter((t) => t.boosted).length} recurring theme(s). Deep: ${deep.ranked} ranked, ${deep.passed} passed, ${deep.promoted} promoted, ${deep.proposed} for review.`);
  for (const r of rem.reflections) out(`  ${r}`);
  if (run.consolidation.mode !== 'none') out(`Consolidation: ${run.consolidation.mode}${run.consolidation.fallbackReason ? ` (${run.consolidation.fallbackReason})` : ''}`);
  for (const c of run.candidates.slice(0, 15)) {
    const failed = c.gates.filter((g) => !g.passed).map((g) => `${g.gate}: ${g.detail}`);
    out(`  ${c.score.toFixed(3)}  ${c.outcome.padEnd(11)} ${c.key}  ${c.text.slice(0, 80)}${failed.length ? `\n         ✗ ${failed[0]}` : ''}`);
  }
  if (run.candidates.length > 15) out(`  … ${run.candidates.length - 15} more (use --json)`);
  for (const p of run.promoted) out(`${p.decision === 'proposed' ? 'Proposed for' : 'Wrote to'} ${p.target} (${p.action}): ${p.lines.at(-1)}`);
  for (const w of run.writes.filter((w) => w.outcome === 'aborted')) out(`Not written: ${w.file}: ${w.reason}`);
  if (run.narrative) out(`\n${run.narrative}`);
}
