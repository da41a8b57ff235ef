import fs from 'node:fs';
import path from 'node:path';
import { it } from 'vitest';
import { createTempWorkspace, openService } from '../helpers/workspace.js';
import { dream, recallOver, testClock } from '../helpers/dreaming.js';

it('repro', async () => {
  const ws = createTempWorkspace({
    'MEMORY.md': '# Long-Term Memory\n\n## Kestrel\n- Kestrel is the billing service.\n\n## People\n- Dana runs the platform team.\n',
    'memory/2026-11-27.md': '# 2026-11-27\n\n- Moved the production deploy target from fly.io to a Hetzner box named ledgerd-prod-2.\n',
    'memory/2026-11-28.md': '# 2026-11-28\n\n- The staging database is ledgerd-staging on port 5433.\n',
  });
  const clock = testClock(new Date(2026, 10, 29, 3, 0, 0).getTime());
  const service = openService(ws, { now: clock.now });
  await service.sync(false);
  await recallOver(service, clock, [
    { query: 'where does production deploy now', daysAgo: 2 },
    { query: 'ledgerd-prod-2 hetzner box', daysAgo: 1 },
    { query: 'staging database port 5433', daysAgo: 1 },
  ]);
  const run = await dream(service, { thresholds: { minScore: 0, minRecallCount: 1, minUniqueQueries: 1 } });
  const read = (f: string) => fs.readFileSync(path.join(ws.root, f), 'utf8');
  console.log('--- after sweep\n' + read('MEMORY.md') + '\n---DREAMS\n' + read('DREAMS.md'));
  await service.invoke('dream.review', { runId: run.id, candidateKey: 'memory/2026-11-27.md:3:3', decision: 'approve' });
  await service.invoke('dream.review', { runId: run.id, candidateKey: 'memory/2026-11-28.md:3:3', decision: 'reject' });
  console.log('--- after review\n' + read('MEMORY.md') + '\n---DREAMS\n' + read('DREAMS.md'));
  await service.invoke('dream.rollback', { runId: run.id });
  console.log('--- after rollback\n' + read('MEMORY.md') + '\n---DREAMS\n' + read('DREAMS.md'));
  await service.close();
  ws.cleanup();
});
