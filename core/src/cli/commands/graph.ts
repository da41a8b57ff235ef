import { operations, type GraphClaim, type GraphEntity, type GraphEntityAnswer, type GraphEvidence, type GraphSlice } from '../../contract/index.js';
import { ReverieError } from '../../platform/errors.js';
import { defineCommand, numberError } from '../command.js';
import { openService, type CliContext } from '../context.js';
import { printJson } from '../output.js';

/** Each form's default and largest --limit (the node budget differs: a list, a neighbourhood, the whole view). */
const LIMITS = { search: [20, 200], neighbors: [200, 5000], overview: [2000, 20_000] } as const;

export const graphCommand = defineCommand({
  name: 'graph',
  summary: 'The knowledge graph, every item with the lines that support it.',
  usage: [
    { line: 'graph search <text> [--limit N] [--json]', summary: operations['graph.search'].summary },
    { line: 'graph neighbors <entity> [--hops N] [--limit N] [--json]', summary: operations['graph.neighbors'].summary },
    { line: 'graph explain <claimId> [--json]', summary: operations['graph.explain'].summary },
    { line: 'graph overview [--limit N] [--json]', summary: operations['graph.overview'].summary },
    { line: 'graph aliases [--json]', summary: operations['graph.aliases'].summary },
    { line: 'graph merge <name> <other name>… [--json]', summary: `${operations['graph.merge'].summary} Quote names with spaces: graph merge "Dana Okafor" Dana @dana.` },
    { line: 'graph split <name> <entity> [--json]', summary: operations['graph.split'].summary },
  ],
  flags: {
    limit: { type: 'number', integer: true, min: 1, description: 'node budget: search 20 (at most 200), neighbors 200 (5000), overview 2000 (20000)' },
    hops: { type: 'number', integer: true, min: 1, max: 3, default: 1, description: 'how far neighbors reaches from the entity' },
  },
  async run(ctx, flags) {
    const [action, ...words] = ctx.positionals;
    const text = words.join(' ').trim();
    if (action === 'aliases' || action === 'merge' || action === 'split') return aliasCommand(ctx, action, words);
    if (action !== 'search' && action !== 'neighbors' && action !== 'explain' && action !== 'overview') throw new ReverieError('invalid-input', ctx.usage);
    if (action !== 'overview' && !text) throw new ReverieError('invalid-input', `Say what to look up. ${ctx.usage}`);
    const limit = (form: keyof typeof LIMITS): number => {
      const [fallback, max] = LIMITS[form];
      if (flags.limit === undefined) return fallback;
      if (flags.limit > max) throw numberError('limit', { integer: true, min: 1, max }, flags.limit);
      return flags.limit;
    };
    const service = await openService(ctx);
    try {
      // Without a host keeping the index (and graph) fresh, catch up first.
      if (!service.lock.readHolder()) await service.invoke('index.sync', { force: false });
      if (action === 'search') {
        const { entities } = await service.invoke('graph.search', { text, limit: limit('search') });
        if (ctx.json) printJson(entities);
        else printEntities(entities);
      } else if (action === 'neighbors') {
        const slice = await service.invoke('graph.neighbors', { entity: text, hops: flags.hops, limit: limit('neighbors') });
        if (ctx.json) printJson(slice);
        else {
          printSlice(slice, slice.center);
          if (slice.facts.length > 0) process.stdout.write('Facts:\n');
          for (const f of slice.facts) process.stdout.write(`  ${f.predicate}: ${f.literal ?? ''}  [${f.id}, ${f.evidence[0] ? where(f.evidence[0]) : 'no evidence'}]\n`);
        }
      } else if (action === 'explain') {
        const claim = await service.invoke('graph.explain', { claimId: text });
        if (ctx.json) printJson(claim);
        else {
          process.stdout.write(`${claim.id}  ${claim.subjectLabel} —${claim.predicate}→ ${claim.objectLabel ?? JSON.stringify(claim.literal)}\n`);
          process.stdout.write(`  confidence ${claim.confidence}, weight ${claim.weight}, origin ${claim.origin}, valid ${claim.validFrom ?? '?'} – ${claim.validUntil ?? 'now'}\n`);
          for (const l of claim.lines) process.stdout.write(`  ${l.path}:${l.line}  ${l.text}\n`);
        }
      } else {
        const slice = await service.invoke('graph.overview', { limit: limit('overview') });
        if (ctx.json) printJson(slice);
        else printSlice(slice, null);
      }
      return 0;
    } finally {
      await service.close();
    }
  },
});

/** `graph aliases|merge|split`: the alias file, read or changed through the contract (which refuses cycles with a reason). */
async function aliasCommand(ctx: CliContext, action: 'aliases' | 'merge' | 'split', names: string[]): Promise<number> {
  if (action === 'merge' && names.length < 2) throw new ReverieError('invalid-input', `Name at least two things to merge, the one to show first: graph merge "Dana Okafor" Dana @dana`);
  if (action === 'split' && names.length !== 2) throw new ReverieError('invalid-input', `Name the name to take out and the entity to take it from: graph split Sam "Sam Reyes"`);
  const service = await openService(ctx);
  try {
    const state =
      action === 'aliases'
        ? await service.invoke('graph.aliases', {})
        : action === 'merge'
          ? await service.invoke('graph.merge', { names })
          : await service.invoke('graph.split', { name: names[0]!, from: names[1]! });
    if (ctx.json) printJson(state);
    else {
      if (action !== 'aliases') process.stdout.write(`${action === 'merge' ? 'Merged' : 'Split'}; ${state.path} now holds:\n`);
      if (state.rules.length === 0) process.stdout.write(`${state.path}: no merges or splits${state.exists ? '' : ' (the file does not exist yet)'}.\n`);
      for (const r of state.rules) process.stdout.write(`  line ${r.line}: ${r.names.join(r.kind === 'merge' ? ' = ' : ' != ')}\n`);
      for (const n of state.notices) process.stdout.write(`  ! ${n.message}\n`);
    }
    return 0;
  } finally {
    await service.close();
  }
}

const where = (e: GraphEvidence) => `${e.path}:${e.startLine}${e.endLine > e.startLine ? `-${e.endLine}` : ''}${e.byModel ? ' (chat model)' : ''}`;

/** "owns stg-01  [claim:4]", "Kestrel runs on it (until 2026-11-02)  [claim:9]". */
function describeAnswer(answer: GraphEntityAnswer): string {
  const predicate = answer.predicate.replace(/_/g, ' ');
  const relation = answer.role === 'subject' ? `${predicate} ${answer.through}` : `${answer.through} ${predicate} it`;
  return `${relation}${answer.validUntil ? ` (until ${answer.validUntil.slice(0, 10)})` : ''}  [${answer.claimId}]`;
}

export function printEntities(entities: readonly GraphEntity[]): void {
  if (entities.length === 0) process.stdout.write('No entities.\n');
  for (const e of entities) {
    const marks = [e.type, `degree ${e.degree}`, ...(e.origin === 'owner' ? [] : [e.origin]), ...(e.aliases.length ? [`aka ${e.aliases.join(', ')}`] : [])];
    process.stdout.write(`${e.id}  ${e.label}  (${marks.join(', ')})\n`);
    if (e.answer) process.stdout.write(`    ${describeAnswer(e.answer)}\n`);
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
