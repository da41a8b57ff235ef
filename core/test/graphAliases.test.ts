import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import type { MemoryService } from '../src/engine/memoryService.js';
import { AliasBook } from '../src/graph/aliases/aliasBook.js';
import { cliEnv, runCli } from './helpers/cli.js';
import { createTempWorkspace, openService, type TempWorkspace } from './helpers/workspace.js';

let ws: TempWorkspace | undefined;
let service: MemoryService | undefined;
afterEach(async () => {
  await service?.close();
  ws?.cleanup();
  service = undefined;
  ws = undefined;
});

const db = (s: MemoryService) => (s as unknown as { db: Database.Database }).db;

/** Entity labels with their aliases, e.g. "Postgres (PG16)". */
function entityLabels(d: Database.Database): string[] {
  const rows = d
    .prepare(
      `SELECT e.label, group_concat(DISTINCT a.alias) AS aliases FROM graph_entities e LEFT JOIN graph_aliases a ON a.entity_id = e.id
       WHERE e.type NOT IN ('tag', 'url', 'path') GROUP BY e.id ORDER BY e.label`,
    )
    .all() as Array<{ label: string; aliases: string | null }>;
  return rows.map((r) => (r.aliases ? `${r.label} (${r.aliases.split(',').sort().join(', ')})` : r.label));
}

const NOTES = {
  'memory/2026-11-02.md': '# 2026-11-02\n\n- Kestrel uses Postgres for the ledger.\n- Sam Reyes owns the billing repo.\n',
  'memory/2026-11-09.md': '# 2026-11-09\n\n- Upgraded PG16 on db01 during the maintenance slot.\n- Asked Sam about the invoices; Sam said next week.\n',
};

describe('the alias file: reading it', () => {
  it('ignores a line with a syntax error, naming the file and line, and applies the rest', () => {
    const book = AliasBook.parse(['# Aliases', '', 'Prose explains; only list items are rules.', '- Dana Okafor = Dana = @dana', '- Priya Natarajan', '- Kestrel = ', '- Sam != Sam Reyes', '- A = B != C'].join('\n'));
    expect(book.rules).toEqual([
      { line: 4, kind: 'merge', names: ['Dana Okafor', 'Dana', '@dana'] },
      { line: 7, kind: 'split', names: ['Sam', 'Sam Reyes'] },
    ]);
    expect(book.notices.map((n) => n.line)).toEqual([5, 6, 8]);
    expect(book.notices[0]!.message).toMatch(/^ALIASES\.md line 5 is not a rule: write "Name = other name/);
    expect(book.notices[1]!.message).toBe('ALIASES.md line 6 has an empty name (a "=" with nothing on one side); the line is ignored.');
    expect(book.notices[2]!.message).toContain('mixes "=" and "!="');
    expect(book.canonicalOf('@dana')).toEqual({ key: 'dana okafor', label: 'Dana Okafor' });
    expect(book.areKeptApart('sam reyes', 'sam')).toBe(true);
  });

  it('refuses a cycle, a name in two groups and a merge a split forbids, each with a sentence', () => {
    const book = AliasBook.parse(['- Dana Okafor = Dana', '- Dana = Dana Okafor', '- Dana Silva = Dana', '- Sam != Sam Reyes', '- Sam Reyes = Sam', '- PG = Postgres', '- PostgreSQL = PG'].join('\n'));
    expect(book.notices.map((n) => n.line)).toEqual([2, 3, 5]);
    expect(book.notices[0]!.message).toBe(
      'ALIASES.md line 2 would make a cycle: "Dana" is already another name of "Dana Okafor" (line 1), so "Dana Okafor" cannot also be another name of "Dana"; the line is ignored.',
    );
    expect(book.notices[1]!.message).toContain('would put "Dana" in two groups: it is already another name of "Dana Okafor" (line 1)');
    expect(book.notices[2]!.message).toContain('which line 4 keeps apart');
    // A group can be taken into a larger one (no cycle): PG's group is now shown as PostgreSQL.
    expect(book.canonicalOf('postgres')).toEqual({ key: 'postgresql', label: 'PostgreSQL' });
    expect(book.mergeRefusal(['Postgres', 'PostgreSQL'], 8)).toMatch(/cycle|two groups/);
  });

  it('skips comments and fenced blocks', () => {
    const book = AliasBook.parse(['<!-- - A = B -->', '```', '- C = D', '```', '- E = F <!-- why: same service -->', '<!--', '- G = H', '-->'].join('\n'));
    expect(book.rules).toEqual([{ line: 5, kind: 'merge', names: ['E', 'F'] }]);
    expect(book.notices).toEqual([]);
  });
});

describe('the alias file: merge and split through the contract', () => {
  it('merges two names into one entity, refuses the reverse as a cycle, and splits them again', async () => {
    ws = createTempWorkspace(NOTES);
    service = openService(ws);
    await service.invoke('index.sync', {});
    expect(entityLabels(db(service))).toEqual(expect.arrayContaining(['PG16', 'Postgres']));

    const merged = await service.invoke('graph.merge', { names: ['Postgres', 'PG16'] });
    expect(merged.rules).toEqual([{ line: expect.any(Number), kind: 'merge', names: ['Postgres', 'PG16'] }]);
    const file = fs.readFileSync(path.join(ws.root, 'ALIASES.md'), 'utf8');
    expect(file).toMatch(/^# Aliases\n/);
    expect(file.endsWith('- Postgres = PG16\n')).toBe(true);
    await service.invoke('index.sync', {});
    const labels = entityLabels(db(service));
    expect(labels).toContain('Postgres (PG16)');
    expect(labels).not.toContain('PG16');

    await expect(service.invoke('graph.merge', { names: ['PG16', 'Postgres'] })).rejects.toThrow(
      'Not merged: "PG16" and "Postgres" would make a cycle: "PG16" is already another name of "Postgres"',
    );
    expect(fs.readFileSync(path.join(ws.root, 'ALIASES.md'), 'utf8')).toBe(file);

    const split = await service.invoke('graph.split', { name: 'PG16', from: 'Postgres' });
    expect(split.rules).toEqual([{ line: expect.any(Number), kind: 'split', names: ['PG16', 'Postgres'] }]);
    expect(split.notices).toEqual([]);
    await service.invoke('index.sync', {});
    expect(entityLabels(db(service))).toEqual(expect.arrayContaining(['PG16', 'Postgres']));
  });

  it('a split keeps a first name apart from the one full name it would join', async () => {
    ws = createTempWorkspace(NOTES);
    service = openService(ws);
    await service.invoke('index.sync', {});
    // "Sam" alone is the one Sam the notes name in full, kept as his alias.
    expect(entityLabels(db(service))).toContain('Sam Reyes (Sam)');
    expect(entityLabels(db(service))).not.toContain('Sam');
    ws.write('ALIASES.md', '# Aliases\n\n- Sam != Sam Reyes\n');
    await service.invoke('index.sync', {});
    const labels = entityLabels(db(service));
    expect(labels).toContain('Sam Reyes');
    expect(labels).toContain('Sam');
  });

  it('reports a syntax error in the sync report and graph.aliases, and the merge survives a rebuilt index', async () => {
    ws = createTempWorkspace({ ...NOTES, 'ALIASES.md': '# Aliases\n\n- Postgres = PG16\n- Kestrel\n' });
    service = openService(ws);
    const report = await service.invoke('index.sync', {});
    const notice = 'ALIASES.md line 4 is not a rule: write "Name = other name = @handle" to merge, or "Name != other name" to keep two apart; the line is ignored.';
    expect(report.notices).toContain(notice);
    expect((await service.invoke('graph.aliases', {})).notices).toEqual([{ line: 4, message: notice }]);
    expect(entityLabels(db(service))).toContain('Postgres (PG16)');

    await service.close();
    fs.rmSync(ws.dataDir, { recursive: true, force: true });
    service = openService(ws);
    await service.invoke('index.sync', {});
    expect(entityLabels(db(service))).toContain('Postgres (PG16)');
  });
});

describe('reverie graph merge|split|aliases', () => {
  it('writes the rule, and refuses a cycle with a sentence and exit code 1', async () => {
    ws = createTempWorkspace(NOTES);
    const env = cliEnv(ws.dataDir);
    const at = ['--workspace', ws.root];
    const merged = await runCli(['graph', 'merge', 'Sam Reyes', 'Sam', '@sam', ...at], env);
    expect(merged.stderr).toBe('');
    expect(merged.code).toBe(0);
    expect(merged.stdout).toContain('line 7: Sam Reyes = Sam = @sam');
    const cycle = await runCli(['graph', 'merge', 'Sam', 'Sam Reyes', ...at], env);
    expect(cycle.code).toBe(1);
    expect(cycle.stderr).toContain('would make a cycle');
    const listed = await runCli(['graph', 'aliases', '--json', ...at], env);
    expect(JSON.parse(listed.stdout)).toMatchObject({ path: 'ALIASES.md', exists: true, rules: [{ kind: 'merge', names: ['Sam Reyes', 'Sam', '@sam'] }], notices: [] });
  }, 120_000);
});
