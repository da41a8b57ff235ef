import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, type OperationOutput } from '../src/contract/index.js';
import type { MemoryService } from '../src/engine/memoryService.js';
import { englishWorkspace, PEOPLE, sequence, THINGS, VERBS } from './helpers/englishWorkspace.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

/**
 * `memory.search`'s answers are not parsed against the contract on every call (engine/invoke.ts,
 * OUTPUT_CHECKED_BY_TESTS): real answers are, here. Parsing strips fields the contract does not
 * name and refuses values it does not allow, so an answer equal to its own parse is one the
 * per-call check would have passed unchanged.
 */
const KINDS_NOTE = [
  '# 2026-10-20',
  '',
  '- [ ] Renew the TLS certificate for the staging box before Friday',
  '- Should we move the restic backups to the new bucket?',
  '- Conference in Lisbon Nov 2–6, the ledgerd release waits until after',
  '- Decided: the Postgres upgrade happens on a Sunday <!-- project: atlas -->',
  '',
].join('\n');

let ws: TempWorkspace;
let service: MemoryService;
beforeAll(async () => {
  ws = createTempWorkspace({ ...englishWorkspace(), 'memory/2026-10-20.md': KINDS_NOTE });
  service = openService(ws);
  await service.invoke('index.sync', {});
});
afterAll(async () => {
  await service.close();
  ws.cleanup();
});

function questions(): string[] {
  const next = sequence(5);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const asked = ['renew the TLS certificate', 'restic backups bucket', 'Lisbon conference ledgerd', 'quasar observation', 'the', '2026-10-20', 'memory/2026-10-20.md'];
  for (let i = 0; i < 30; i++) asked.push(`what did ${pick(PEOPLE)} do with ${pick(THINGS)}`, `who ${pick(VERBS)} ${pick(THINGS)}?`);
  return asked;
}

describe('memory.search answers', () => {
  it('are exactly what the contract allows, in every form a caller asks for', async () => {
    const answers: OperationOutput<'memory.search'>[] = [];
    for (const [i, query] of questions().entries()) {
      answers.push(await service.invoke('memory.search', { query, limit: i % 3 === 0 ? 20 : 5 }));
      if (i % 4 === 1) answers.push(await service.invoke('memory.search', { query, limit: 8, budget: 500 }));
      if (i % 5 === 2) answers.push(await service.invoke('memory.search', { query, project: 'atlas', graph: true, sources: ['memory', 'dreams', 'sessions'] }));
    }
    answers.push(await service.invoke('memory.search', { query: 'restic backups', sources: ['dreams'] })); // no DREAMS.md: an empty page
    const results = answers.flatMap((a) => a.results);
    // The answers hold what the check is about: provenance, entry kinds, budgets, graph groups, empty pages.
    expect(results.some((r) => r.origin !== undefined)).toBe(true);
    expect(results.some((r) => (r.entryKinds?.length ?? 0) > 0)).toBe(true);
    expect(answers.some((a) => a.graph !== undefined)).toBe(true);
    expect(answers.some((a) => a.results.length === 0)).toBe(true);
    for (const answer of answers) expect(operations['memory.search'].output.parse(answer)).toEqual(answer);
  });

  it('fails the comparison for a field the contract does not name', () => {
    const answer = { results: [], tookMs: 1, ranking: 'internal' };
    expect(operations['memory.search'].output.parse(answer)).not.toEqual(answer);
  });
});
