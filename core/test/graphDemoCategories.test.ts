import { describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { indexedWorkspaces } from './helpers/indexedWorkspace.js';

const engine = indexedWorkspaces();
const indexed = engine.indexed;

const labels = (d: Database.Database) => d.prepare('SELECT label FROM graph_entities').pluck().all() as string[];

/** The kinds of wrong entities the demo workspace's top 40 held, one case each. */
describe('graph judgment: the demo workspace categories', () => {
  it('roles, coding agents, build files and a verb after bold text are not entities', async () => {
    const d = await indexed({
      'MEMORY.md': '# Memory\n\n- Manager: Priya Natarajan (EM, Ledger).\n- We pinned Hugo in the Makefile.\n',
      'memory/2026-11-04.md': '# 2026-11-04\n\n- **v2.4 moves to Wed Nov 18.** Posted in #ledger.\n- Agent wrote the backfill; Agent did the swap.\n',
      'memory/2026-11-10.md': '# 2026-11-10\n\n- Go/no-go: **go**. Posted in #infra.\n',
    });
    const found = labels(d);
    for (const furniture of ['EM', 'Makefile', 'Posted', 'Agent']) expect(found).not.toContain(furniture);
    expect(found).toContain('Hugo');
  });

  it('an untyped full name is the person once their first name is known to be one, whichever comes first', async () => {
    const d = await indexed({
      'MEMORY.md': '# Memory\n\n- Manager: Priya Natarajan (Ledger).\n',
      'memory/2026-11-02.md': '# 2026-11-02\n\n- Call with Priya about the freeze.\n- Priya said the freeze holds.\n',
      'memory/2026-11-03.md': '# 2026-11-03\n\n- Lena said the slot moved.\n- Lena Vogel booked the room.\n',
    });
    const people = d.prepare("SELECT label FROM graph_entities WHERE type = 'person' ORDER BY label").pluck().all();
    expect(people).toEqual(['Lena Vogel', 'Priya Natarajan']);
    expect(labels(d)).not.toContain('Priya');
  });

  it('a note title is a section unless a fact is stated of it, and a headline never is', async () => {
    const d = await indexed({
      'memory/2026-10-30-flaky.md': '# ledgerd: flaky TestStatementCutoff — the 25-hour day\n\nWrite-up for Priya, 2026-10-30. [[ledgerd]]\n',
      'memory/tools/caddy-setup.md': '# Caddy setup\n\nPort: 443\n',
      'memory/2026-11-03-upgrade.md': '# Postgres 15 → 16 upgrade, ledger cluster — runbook\n\nOwner: Jonas (cluster).\n',
    });
    const found = labels(d);
    expect(found).not.toContain('ledgerd: flaky TestStatementCutoff — the 25-hour day');
    expect(found).not.toContain('Postgres 15 → 16 upgrade, ledger cluster — runbook');
    expect(found).toContain('Caddy setup');
  });

  it('the overview ranks tags, links and paths after every named thing', async () => {
    await indexed({
      'memory/2026-11-02.md': '# 2026-11-02\n\n- Dana Okafor owns Kestrel. #talk\n- Kestrel runs on kube-east. #talk\n- Talked to Dana Okafor about `infra/notes.md`. #talk\n',
    });
    const { entities } = await engine.service().invoke('graph.overview', { limit: 3 });
    expect(entities.map((e) => e.type)).not.toContain('tag');
    expect(entities.map((e) => e.label).sort()).toEqual(['Dana Okafor', 'Kestrel', 'kube-east']);
  });
});
