import { operations, type DreamRun, type DreamRunSummary, type DreamThresholds } from '../../contract/index.js';
import { ReverieError } from '../../platform/errors.js';
import { defineCommand } from '../command.js';
import { openService } from '../context.js';
import { printJson } from '../output.js';

export const dreamCommand = defineCommand({
  name: 'dream',
  summary: 'One dreaming sweep now (never a scheduled one), the runs, review and rollback.',
  usage: [
    { line: 'dream [--dry-run] [--backfill PATH] [--min-score X] [--min-recall-count N] [--min-unique-queries N] [--json]', summary: operations['dream.run'].summary },
    { line: 'dream --rollback RUN [--json]', summary: operations['dream.rollback'].summary },
    { line: 'dream runs [--json]', summary: operations['dream.runs'].summary },
    { line: 'dream show <runId> [--json]', summary: operations['dream.get'].summary },
    { line: 'dream review <runId> <candidateKey> approve|reject [--json]', summary: operations['dream.review'].summary },
    { line: 'dream conflicts [--all] [--json]', summary: operations['dream.conflicts'].summary },
    { line: 'dream conflicts --resolve ID keep-a|keep-b|keep-both|dismissed [--json]', summary: operations['dream.resolve'].summary },
  ],
  flags: {
    dryRun: { type: 'boolean', description: 'show what the sweep would promote; write nothing' },
    backfill: { type: 'string', value: 'PATH', description: 'sweep old daily notes (a file or folder in the workspace) instead of recent recall' },
    rollback: { type: 'string', value: 'RUN', description: 'undo that run instead of sweeping' },
    resolve: { type: 'string', value: 'ID', description: 'with `dream conflicts`: decide that contradiction (keep-a, keep-b, keep-both or dismissed)' },
    all: { type: 'boolean', description: 'with `dream conflicts`: decided contradictions too' },
    minScore: { type: 'number', value: 'X', min: 0, max: 1, description: 'promote only candidates scoring at least this' },
    minRecallCount: { type: 'number', integer: true, min: 0, max: 1000, description: 'promote only entries recalled at least this often' },
    minUniqueQueries: { type: 'number', integer: true, min: 0, max: 1000, description: 'promote only entries found by at least this many different queries' },
  },
  async run(ctx, flags) {
    const [sub, ...args] = ctx.positionals;
    if (sub !== undefined && sub !== 'runs' && sub !== 'show' && sub !== 'review' && sub !== 'conflicts') throw new ReverieError('invalid-input', `Unknown dream command "${sub}".\n${ctx.usage}`);
    const thresholds: DreamThresholds = {
      ...(flags.minScore !== undefined ? { minScore: flags.minScore } : {}),
      ...(flags.minRecallCount !== undefined ? { minRecallCount: flags.minRecallCount } : {}),
      ...(flags.minUniqueQueries !== undefined ? { minUniqueQueries: flags.minUniqueQueries } : {}),
    };
    const service = await openService(ctx);
    try {
      if (sub === 'runs') {
        const { runs, schedule } = await service.invoke('dream.runs', { limit: 50 });
        if (ctx.json) printJson({ runs, schedule });
        else printRuns(runs, schedule.time);
        return 0;
      }
      if (sub === 'conflicts') return await conflicts(service, ctx, flags.resolve, args[0], flags.all);
      if (sub === 'show' || sub === 'review') {
        const [runId, candidateKey, decision] = args;
        if (!runId) throw new ReverieError('invalid-input', ctx.usage);
        let run: DreamRun;
        if (sub === 'show') run = await service.invoke('dream.get', { runId });
        else {
          if (!candidateKey || (decision !== 'approve' && decision !== 'reject')) throw new ReverieError('invalid-input', ctx.usage);
          run = await service.invoke('dream.review', { runId, candidateKey, decision });
        }
        if (ctx.json) printJson(withRunId(run));
        else printRun(run);
        return 0;
      }
      if (flags.rollback) {
        const run = await service.invoke('dream.rollback', { runId: flags.rollback });
        if (ctx.json) printJson(withRunId(run));
        else printRollback(run);
        return 0;
      }
      // Without a host keeping the index fresh, catch up first so the sweep sees today's notes.
      if (!service.lock.readHolder()) await service.invoke('index.sync', { force: false });
      const run = await service.invoke('dream.run', {
        dryRun: flags.dryRun,
        ...(flags.backfill ? { backfill: flags.backfill } : {}),
        ...(Object.keys(thresholds).length > 0 ? { thresholds } : {}),
      });
      if (ctx.json) printJson(withRunId(run));
      else printRun(run);
      return run.status === 'failed' ? 1 : 0;
    } finally {
      await service.close();
    }
  },
});

const DECISIONS = ['keep-a', 'keep-b', 'keep-both', 'dismissed'] as const;

async function conflicts(service: Awaited<ReturnType<typeof openService>>, ctx: { json: boolean; usage: string }, resolve: string | undefined, decision: string | undefined, all: boolean): Promise<number> {
  if (resolve !== undefined) {
    if (!DECISIONS.includes(decision as (typeof DECISIONS)[number])) throw new ReverieError('invalid-input', `dream conflicts --resolve ${resolve} needs a decision: ${DECISIONS.join(', ')}.\n${ctx.usage}`);
    const conflict = await service.invoke('dream.resolve', { conflictId: resolve, decision: decision as (typeof DECISIONS)[number] });
    if (ctx.json) printJson(conflict);
    else console.log(`${conflict.id}: ${conflict.status}. The next sweep follows your decision.`);
    return 0;
  }
  const { conflicts: list } = await service.invoke('dream.conflicts', { status: all ? 'all' : 'open' });
  if (ctx.json) {
    printJson({ conflicts: list });
    return 0;
  }
  if (list.length === 0) console.log(all ? 'No contradictions were ever queued.' : 'No open contradictions.');
  for (const c of list) {
    console.log(`${c.id}  ${c.status}  (${c.reason})`);
    console.log(`  a: ${c.a.text}  [${c.a.path}:${c.a.line}${c.a.day ? `, ${c.a.day}` : ''}]`);
    console.log(`  b: ${c.b.text}  [${c.b.path}:${c.b.line}${c.b.day ? `, ${c.b.day}` : ''}]`);
  }
  if (list.some((c) => c.status === 'open')) console.log('Decide with: reverie dream conflicts --resolve ID keep-a|keep-b|keep-both|dismissed');
  return 0;
}

/** Scripts read `runId` first, as the issue's JSON shape names it; the record keeps its typed `id`. */
function withRunId(run: DreamRun): DreamRun & { runId: string } {
  return { runId: run.id, ...run };
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
    out(`  ${c.score.toFixed(3)}  ${c.outcome.padEnd(11)} ${kindText(c).padEnd(12)} ${c.key}  ${c.text.slice(0, 80)}${failed.length ? `\n         ✗ ${failed[0]}` : ''}`);
  }
  if (run.candidates.length > 15) out(`  … ${run.candidates.length - 15} more (use --json)`);
  for (const p of run.promoted) {
    out(`${p.decision === 'proposed' ? 'Proposed for' : 'Wrote to'} ${p.target} (${p.action}): ${p.lines.at(-1)}`);
    // Why it waits (an agent's note, imported memory, a directive said in a conversation, review before writing).
    const why = p.decision === 'proposed' ? run.candidates.find((c) => c.key === p.candidateKey)?.gates.find((g) => g.gate === 'review')?.detail : undefined;
    if (why) out(`    waiting: ${why}`);
  }
  for (const w of run.writes.filter((w) => w.outcome === 'aborted')) out(`Not written: ${w.file}: ${w.reason}`);
  if (run.narrative) out(`\n${run.narrative}`);
}

/** An entry's kind as `dream show` lists it: `task`, `time-bounded until 2026-11-06`, `fact (index)` when the index decided it. */
function kindText(c: DreamRun['candidates'][number]): string {
  if (!c.kind) return '';
  const until = c.kind === 'time-bounded' ? ` until ${c.validUntil ?? '?'}` : '';
  return `${c.kind}${until}${c.kindSource === 'index' ? ' (index)' : ''}`;
}

function printRollback(run: DreamRun): void {
  const files = run.rolledBack?.files ?? [];
  const lines = [`Rolled back ${run.id}${files.length === 0 ? ': it had written no files, so nothing needed restoring.' : ', each file read back and checked:'}`];
  for (const f of files) lines.push(`  ${f.file}: ${f.detail}`);
  process.stdout.write(lines.join('\n') + '\n');
}
