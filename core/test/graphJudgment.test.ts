import { describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { indexedWorkspaces } from './helpers/indexedWorkspace.js';

const engine = indexedWorkspaces();
const indexed = engine.indexed;

function entities(d: Database.Database): Map<string, string> {
  return new Map((d.prepare('SELECT label, type FROM graph_entities').raw().all() as Array<[string, string]>).map(([l, t]) => [l, t]));
}

function aliasesOf(d: Database.Database, label: string): string[] {
  return d.prepare('SELECT a.alias FROM graph_aliases a JOIN graph_entities e ON e.id = a.entity_id WHERE e.label = ? ORDER BY a.alias').pluck().all(label) as string[];
}

interface Relation {
  subject: string;
  predicate: string;
  object: string;
  from: string | null;
  until: string | null;
}

function relations(d: Database.Database): Relation[] {
  return d
    .prepare(
      `SELECT s.label AS subject, c.predicate, o.label AS object, c.valid_from AS "from", c.valid_until AS until FROM graph_claims c
       JOIN graph_entities s ON s.id = c.subject_id JOIN graph_entities o ON o.id = c.object_id WHERE c.predicate != 'mentioned_with' ORDER BY c.id`,
    )
    .all() as Relation[];
}

describe('graph judgment: what is an entity', () => {
  it('keeps day headings, weekdays, months, zones, units, section nouns and code out', async () => {
    const d = await indexed({
      'memory/2026-10-26.md': [
        '# 2026-10-26',
        '',
        '## Mon 26 Oct',
        '- Standup at 09:30 CET, retro on Thursday.',
        '- p95 latency 240 ms at 1,200 requests/minute; 40 GB copied.',
        '- Q1 planning pushed to Friday 30 Oct.',
        "- Didn't get to the backlog; API docs still stale.",
        '- Ran `Add(24*time.Hour)` and `kubectl rollout restart` again.',
        '',
        '## Standup',
        '- Lunch: the ramen place closes on Tuesdays.',
        '',
        '## Meeting: architecture review',
        '- Priya Raman owns Kestrel.',
      ].join('\n'),
    });
    const labels = [...entities(d).keys()];
    expect(labels.sort()).toEqual(['Kestrel', 'Priya Raman']);
    // "Lunch: …" under a section heading is not a fact of the section.
    expect(d.prepare('SELECT count(*) FROM graph_claims WHERE literal IS NOT NULL').pluck().get()).toBe(0);
  });

  it('keeps a heading that names a thing named elsewhere', async () => {
    const d = await indexed({
      'memory/2026-10-01.md': '# 2026-10-01\n\n- Kestrel runs on kube-east.\n',
      'memory/2026-10-02.md': '# 2026-10-02\n\n## Kestrel\n- Deploy was slow again.\n',
    });
    const kestrel = d.prepare("SELECT mentions FROM graph_entities WHERE label = 'Kestrel'").pluck().get();
    expect(kestrel).toBe(2);
  });

  it('a note with 5,000 capitalised words stays bounded and extracts', async () => {
    const words = Array.from({ length: 5_000 }, (_, i) => `Word${String.fromCharCode(65 + (i % 26))}${i}`);
    const d = await indexed({ 'memory/2026-10-03.md': `# 2026-10-03\n\n- ${words.join(' ')}\n- Dana Okafor owns Kestrel.\n` });
    expect(d.prepare('SELECT count(*) FROM graph_entities').pluck().get() as number).toBeLessThanOrEqual(70);
    expect(relations(d)).toContainEqual(expect.objectContaining({ subject: 'Dana Okafor', predicate: 'owns', object: 'Kestrel' }));
  }, 120_000);

  it('tells the names "May", "Will" and "Rust" from the words', async () => {
    const d = await indexed({
      'memory/2026-05-04.md': [
        '# 2026-05-04',
        '',
        '- May Chen owns Pipette.',
        '- The audit is due in May; we will ship after it.',
        '- Will Turner reviewed the Pipette dashboards.',
        '- Pipette uses Rust.',
      ].join('\n'),
    });
    const found = entities(d);
    expect(found.get('May Chen')).toBe('person');
    expect(found.get('Will Turner')).toBe('person');
    expect(found.get('Rust')).toBe('tool');
    expect(found.has('May')).toBe(false);
    expect(found.has('Will')).toBe(false);
    expect(found.has('Chen')).toBe(false);
  });
});

describe('graph judgment: one entity per person', () => {
  it('merges a first name, a possessive and a handle into the one full name, keeping them as aliases', async () => {
    const d = await indexed({
      'memory/2026-10-01.md': '# 2026-10-01\n\n- Dana said the cert expires soon.\n- cc @dana on the Kestrel incident.\n',
      'memory/2026-10-02.md': "# 2026-10-02\n\n- Dana Okafor owns Kestrel.\n- Dana's stage-01 disk is full again.\n",
      'memory/2026-10-03.md': '# 2026-10-03\n\n- Asked Dana about the alerts; @dana agreed.\n',
    });
    const people = d.prepare("SELECT label FROM graph_entities WHERE type = 'person'").pluck().all();
    expect(people).toEqual(['Dana Okafor']);
    expect(aliasesOf(d, 'Dana Okafor')).toEqual(expect.arrayContaining(['Dana', '@dana']));
    expect(d.prepare("SELECT mentions FROM graph_entities WHERE label = 'Dana Okafor'").pluck().get()).toBe(5);
  });

  it('never merges two people who share a first name', async () => {
    const d = await indexed({
      'memory/2026-10-01.md': '# 2026-10-01\n\n- Sam Reyes owns Kestrel.\n- Sam Ortiz owns Heron.\n- Sam said the release slipped.\n- cc @sreyes on Kestrel.\n',
    });
    const people = (d.prepare("SELECT label FROM graph_entities WHERE type = 'person' ORDER BY label").pluck().all() as string[]).filter((l) => l.startsWith('Sam'));
    expect(people).toEqual(['Sam', 'Sam Ortiz', 'Sam Reyes']);
    // A handle that fits one of them (initial and surname) is that one.
    expect(aliasesOf(d, 'Sam Reyes')).toEqual([]);
    expect(d.prepare("SELECT mentions FROM graph_entities WHERE label = 'Sam Reyes'").pluck().get()).toBe(2);
  });
});

describe('graph judgment: typed relations over time', () => {
  it('closes the earlier relation of the same family at the later note’s date, whatever the wording', async () => {
    const d = await indexed({
      'memory/2026-10-01.md': '# 2026-10-01\n\n- Kestrel runs on kube-east.\n- Dana Okafor owns Kestrel.\n- Kestrel uses Redis.\n- Marco Bellini lives in Berlin.\n',
      'memory/2026-10-20.md': '# 2026-10-20\n\n- Moved Kestrel from kube-east to kube-west.\n- Kestrel is now owned by Marco Bellini.\n',
      'memory/2026-10-25.md': '# 2026-10-25\n\n- Replaced Redis with Valkey in Kestrel.\n- Marco Bellini moved to Lisbon last weekend.\n- Kestrel v2.4 moved to 2026-11-18.\n',
    });
    const r = relations(d);
    const find = (subject: string, predicate: string, object: string) => r.find((x) => x.subject === subject && x.predicate === predicate && x.object === object);
    expect(find('Kestrel', 'runs_on', 'kube-east')).toMatchObject({ from: '2026-10-01', until: '2026-10-20' });
    expect(find('Kestrel', 'moved_to', 'kube-west')).toMatchObject({ from: '2026-10-20', until: null });
    expect(find('Dana Okafor', 'owns', 'Kestrel')).toMatchObject({ until: '2026-10-20' });
    expect(find('Marco Bellini', 'owns', 'Kestrel')).toMatchObject({ from: '2026-10-20', until: null });
    expect(find('Kestrel', 'uses', 'Redis')).toMatchObject({ until: '2026-10-25' });
    expect(find('Kestrel', 'uses', 'Valkey')).toMatchObject({ until: null });
    expect(find('Valkey', 'replaced', 'Redis')).toBeDefined();
    expect(find('Marco Bellini', 'located_in', 'Berlin')).toMatchObject({ until: '2026-10-25' });
    expect(find('Marco Bellini', 'moved_to', 'Lisbon')).toMatchObject({ until: null });
    // Dates are attributes of a relation, never its object.
    expect(r.some((x) => /^\d{4}-/.test(x.object))).toBe(false);
    const types = entities(d);
    expect([types.get('Kestrel'), types.get('kube-west'), types.get('Valkey'), types.get('Lisbon'), types.get('Marco Bellini')]).toEqual(['project', 'machine', 'tool', 'place', 'person']);
  });

  it('restating the current value ends nothing', async () => {
    const d = await indexed({
      'memory/2026-10-01.md': '# 2026-10-01\n\n- Kestrel runs on kube-east.\n',
      'memory/2026-10-05.md': '# 2026-10-05\n\n- Kestrel is hosted on kube-east.\n',
    });
    expect(relations(d)).toEqual([expect.objectContaining({ subject: 'Kestrel', predicate: 'runs_on', object: 'kube-east', until: null })]);
  });
});
