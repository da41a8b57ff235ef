import type { GraphClaim, GraphEntity, GraphEvidence, GraphSlice } from '../../contract/index.js';
import { ReverieError } from '../../platform/errors.js';
import { openService, type CliContext } from '../context.js';
import { printJson } from '../output.js';

const USAGE =
  'Usage: reverie graph search <text> [--limit N] [--json] | graph neighbors <entity> [--hops N] [--limit N] [--json] | graph explain <claimId> [--json] | graph overview [--limit N] [--json]';

/** `reverie graph …`: the knowledge graph, every item with the lines that support it. */
export async function graphCommand(ctx: CliContext): Promise<number> {
  const [action, ...words] = ctx.positionals;
  const text = words.join(' ').trim();
  if (!action || !['search', 'neighbors', 'explain', 'overview'].includes(action)) throw new ReverieError('invalid-input', USAGE);
  if (action !== 'overview' && !text) throw new ReverieError('invalid-input', `Say what to look up. ${USAGE}`);
  const service = await openService(ctx);
  try {
    // Without a host keeping the index (and graph) fresh, catch up first.
    if (!service.lock.readHolder()) await service.invoke('index.sync', { force: false });
    if (action === 'search') {
      const { entities } = await service.invoke('graph.search', { text, limit: whole(ctx.options.limit, 20, 200) });
      if (ctx.options.json) printJson(entities);
      else printEntities(entities);
    } else if (action === 'neighbors') {
      const hops = whole(ctx.options.hops, 1, 3, '--hops');
      const slice = await service.invoke('graph.neighbors', { entity: text, hops, limit: whole(ctx.options.limit, 200, 5000) });
      if (ctx.options.json) printJson(slice);
      else {
        printSlice(slice, slice.center);
        if (slice.facts.length > 0) process.stdout.write('Facts:\n');
        for (const f of slice.facts) process.stdout.write(`  ${f.predicate}: ${f.literal ?? ''}  [${f.id}, ${f.evidence[0] ? where(f.evidence[0]) : 'no evidence'}]\n`);
      }
    } else if (action === 'explain') {
      const claim = await service.invoke('graph.explain', { claimId: text });
      if (ctx.options.json) printJson(claim);
      else {
        process.stdout.write(`${claim.id}  ${claim.subjectLabel} —${claim.predicate}→ ${claim.objectLabel ?? JSON.stringify(claim.literal)}\n`);
        process.stdout.write(`  confidence ${claim.confidence}, weight ${claim.weight}, origin ${claim.origin}, valid ${claim.validFrom ?? '?'} – ${claim.validUntil ?? 'now'}\n`);
        for (const l of claim.lines) process.stdout.write(`  ${l.path}:${l.line}  ${l.text}\n`);
      }
    } else {
      const slice = await service.invoke('graph.overview', { limit: whole(ctx.options.limit, 2000, 20_000) });
      if (ctx.options.json) printJson(slice);
      else printSlice(slice, null);
    }
    return 0;
  } finally {
    await service.close();
  }
}

function whole(value: string | undefined, fallback: number, max: number, flag = '--limit'): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new ReverieError('invalid-input', `${flag} must be a whole number from 1 to ${max} (got "${value}").`);
  return n;
}

const where = (e: GraphEvidence) => `${e.path}:${e.startLine}${e.endLine > e.startLine ? `-${e.endLine}` : ''}${e.byModel ? ' (chat model)' : ''}`;

export function printEntities(entities: readonly GraphEntity[]): void {
  if (entities.length === 0) process.stdout.write('No entities.\n');
  for (const e of entities) {
    const marks = [e.type, `degree ${e.degree}`, ...(e.origin === 'owner' ? [] : [e.origin]), ...(e.aliases.length ? [`aka ${e.aliases.join(', ')}`] : [])];
    process.stdout.write(`${e.id}  ${e.label}  (${marks.join(', ')})\n`);
    process.stdout.write(`    ${e.evidence.slice(0, 3).map(where).join('  ')}${e.evidence.length > 3 ? `  +${e.evidence.length - 3} more` : ''}\n`);
  }
}

function printSlice(slice: GraphSlice, center: GraphEntity | null): void {
  const labels = new Map(slice.entities.map((e) => [e.id, e.label]));
  if (center) process.stdout.write(`${center.label} (${center.id}, ${center.type})\n`);
  process.stdout.write(`${slice.entities.length} entities, ${slice.edges.length} relations (of ${slice.totals.entities} entities, ${slice.totals.claims} claims; left out ${slice.omitted.entities} entities, ${slice.omitted.edges} relations)\n`);
  if (slice.evidence === 'omitted') process.stdout.write('Evidence lines are left out here: `reverie graph explain <claimId>` or `reverie graph neighbors <entity>` shows them.\n');
  const cite = (c: GraphClaim) => (slice.evidence === 'omitted' ? c.id : `${c.id}, ${c.evidence[0] ? where(c.evidence[0]) : 'no evidence'}`);
  for (const c of slice.edges.slice(0, 200)) process.stdout.write(`  ${describe(c, labels)}  [${cite(c)}]\n`);
  if (slice.edges.length > 200) process.stdout.write(`  … ${slice.edges.length - 200} more (use --json)\n`);
}

function describe(c: GraphClaim, labels: Map<string, string>): string {
  const object = c.object ? (labels.get(c.object) ?? c.object) : JSON.stringify(c.literal);
  return `${labels.get(c.subject) ?? c.subject} —${c.predicate}${c.weight > 1 ? ` ×${c.weight}` : ''}→ ${object}`;
}
