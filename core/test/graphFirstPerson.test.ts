import { describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { extractFile } from '../src/graph/extractFile.js';
import { writerNameFromOneOnOne, writerNameOf } from '../src/graph/noteWriter.js';
import { indexedWorkspaces } from './helpers/indexedWorkspace.js';

/** The typed relations one note yields, as "subject predicate object" lines. */
function relationsOf(text: string, writerName: string | null = 'Ada Quinn', notePath = 'memory/2026-10-01.md'): string[] {
  return extractFile(notePath, text, '2026-10-01', { writerName }).flatMap((e) =>
    e.claims.filter((c) => c.object !== null).map((c) => `${e.entities[c.subject]!.label} ${c.predicate} ${e.entities[c.object!]!.label}`),
  );
}

describe('the writer of the notes, named by USER.md', () => {
  it('reads a Name line, front matter, "I am …" and a title that is a name', () => {
    expect(writerNameOf('# USER\n\n- Name: Ada Quinn\n- Timezone: Europe/Lisbon\n')).toBe('Ada Quinn');
    expect(writerNameOf('---\nname: Ada Quinn\n---\n# About me\n')).toBe('Ada Quinn');
    expect(writerNameOf('# About me\n\nI am Ada Quinn, a product designer in Rosemont.\n')).toBe('Ada Quinn');
    expect(writerNameOf("# User\n\nI'm Ada. Be terse.\n")).toBe('Ada');
    expect(writerNameOf('# Ada Quinn\n\n- Prefers short answers.\n')).toBe('Ada Quinn');
    expect(writerNameOf('# USER\n\n- **Name:** Ada McQuinn (she/her)\n')).toBe('Ada McQuinn');
    expect(writerNameOf('# USER — Ada Quinn\n\n- Prefers short answers.\n')).toBe('Ada Quinn');
    expect(writerNameOf("# About me\n\nHi, I'm Ada and I design things.\n")).toBe('Ada');
  });

  it('names no one when USER.md only describes them ("I am a designer", "# USER", "I\'m Based in …")', () => {
    expect(writerNameOf('# USER\n\nHow I want agents to work with me.\n- Timezone Europe/Berlin.\n')).toBeNull();
    expect(writerNameOf('# About me\n\nI am a product designer. I am happy with short answers.\n')).toBeNull();
    expect(writerNameOf("# User\n\nI'm Based in Lisbon.\n")).toBeNull();
    expect(writerNameOf('# User\n\n- Name: the usual\n')).toBeNull();
    expect(writerNameOf('# Projects\n\n- ledgerd\n', { titleMayName: false })).toBeNull();
    expect(writerNameOf('# Preferences\n\n- Be terse.\n')).toBeNull();
  });
});

describe('the writer named by a one-to-one with their manager, when USER.md names no one', () => {
  it('takes the other person of a 1:1 with the manager the notes name', () => {
    expect(writerNameFromOneOnOne('- Manager: Priya Natarajan (EM). Notes in the shared doc "Dana / Priya 1:1".')).toBe('Dana');
    expect(writerNameFromOneOnOne('- Priya Natarajan is my manager.\n- 1:1 Priya <> Dana on Thursdays.')).toBe('Dana');
    expect(writerNameFromOneOnOne('Weekly with my manager, Priya.\n- Dana & Priya 1-1 moved to Friday.')).toBe('Dana');
  });

  it('names no one without a manager, when the 1:1 is between others, or when the 1:1s disagree', () => {
    expect(writerNameFromOneOnOne('- Notes in the shared doc "Dana / Priya 1:1".')).toBeNull();
    expect(writerNameFromOneOnOne('- Manager: Priya.\n- "Sam / Lena 1:1" is their doc.')).toBeNull();
    expect(writerNameFromOneOnOne('- Manager: Priya.\n- Dana / Priya 1:1\n- Sam / Priya 1:1')).toBeNull();
    // "May" and "Will" are first names here only by their place in the 1:1.
    expect(writerNameFromOneOnOne('- Manager: Will Hart.\n- May / Will 1:1 on Monday.')).toBe('May');
  });
});

describe('first-person relations', () => {
  it('reads a role line that goes on with the team, in the writer’s own notes', () => {
    expect(relationsOf('# MEMORY\n\n- Backend engineer at Quillfin (Berlin, payments infra), on the Ledger team since March 2024.', 'Ada Quinn', 'MEMORY.md')).toEqual(
      expect.arrayContaining(['Ada Quinn member_of Quillfin', 'Ada Quinn member_of Ledger team']),
    );
    expect(relationsOf('# MEMORY\n\n- Designer at Acme, on the way home.', 'Ada Quinn', 'MEMORY.md')).toEqual(['Ada Quinn member_of Acme']);
  });

  it('places the writer in the larger place too ("I live in Kilimani, Nairobi")', () => {
    expect(relationsOf('- Live in Kilimani, Nairobi, with Karim.', 'Ada Quinn', 'USER.md')).toEqual(
      expect.arrayContaining(['Ada Quinn located_in Kilimani', 'Ada Quinn located_in Nairobi']),
    );
    // Karim is no larger place; he lives there too (sharedHomes.ts).
    expect(relationsOf('- I live in Rosemont, with Karim.')).toEqual(['Ada Quinn located_in Rosemont', 'Karim located_in Rosemont']);
  });

  it('reads what the writer calls their own ("my laptop (`kobe`)", "ada.dev: personal site")', () => {
    expect(relationsOf('- Tailscale between all three + my laptop (`kobe`, the ThinkPad).')).toEqual(['Ada Quinn owns kobe']);
    expect(relationsOf('- ada.dev: personal site, Hugo, deployed to `web-1`.')).toEqual(['Ada Quinn owns ada.dev']);
    expect(relationsOf('- my manager Priya said no. my site is down.')).toEqual([]);
    // In Grace's note, "grace.dev: personal site" is hers, not the writer's.
    expect(relationsOf('# Grace Ho\n\n- grace.dev: personal site.', 'Ada Quinn', 'memory/people/grace.md')).not.toContain('Ada Quinn owns grace.dev');
  });


  it('reads "I …" sentences as the writer’s relations', () => {
    expect(relationsOf('- I live in Rosemont now.')).toEqual(['Ada Quinn located_in Rosemont']);
    expect(relationsOf("- I'm based in Porto these days.")).toEqual(['Ada Quinn located_in Porto']);
    expect(relationsOf('- I joined Tidewater in May.')).toEqual(['Ada Quinn member_of Tidewater']);
    expect(relationsOf("- I'm a staff engineer at Tidewater.")).toEqual(['Ada Quinn member_of Tidewater']);
    expect(relationsOf("- I'm on the Ledger team.")).toEqual(['Ada Quinn member_of Ledger team']);
    expect(relationsOf("- I'm on the Ebb migration this week.")).toEqual(['Ada Quinn works_on Ebb']);
    expect(relationsOf("- I've been working on the Kestrel rewrite.")).toEqual(['Ada Quinn works_on Kestrel']);
    expect(relationsOf('- I own the deploy pipeline.')).toEqual(['Ada Quinn owns deploy pipeline']);
  });

  it('reads a sentence without a subject in the writer’s own notes, never in a person’s note', () => {
    expect(relationsOf('- Moved to Lisbon last year.')).toEqual(['Ada Quinn moved_to Lisbon']);
    expect(relationsOf('- Took over the on-call rota from Grace.')).toEqual(['Ada Quinn owns on-call rota']);
    expect(relationsOf('Coffee first. Joined Tidewater today.')).toEqual(['Ada Quinn member_of Tidewater']);
    // In Grace's note, "Moved to Lisbon" is hers, not the writer's.
    expect(relationsOf('# Grace Ho\n\n- Moved to Lisbon last year.', 'Ada Quinn', 'memory/people/grace.md')).not.toContain('Ada Quinn moved_to Lisbon');
  });

  it('states nothing for sentences that only look like it', () => {
    expect(relationsOf('- I joined the call late.')).toEqual([]);
    expect(relationsOf("- I'm on call this week.")).toEqual([]);
    expect(relationsOf("- I'm on Slack all day.")).toEqual([]);
    expect(relationsOf('- Moved to systemd units on atlas.')).toEqual([]);
    expect(relationsOf('- Moved to 2026-11-18.')).toEqual([]);
    expect(relationsOf('- I own a bike.')).toEqual([]);
    expect(relationsOf('- Based on the numbers, we ship Friday.')).toEqual([]);
  });

  it('says nothing in the first person when USER.md names no one', () => {
    expect(relationsOf('- I live in Rosemont now.\n- Moved to Lisbon last year.', null)).toEqual([]);
  });
});

const workspaces = indexedWorkspaces();

const relationRows = (db: Database.Database) =>
  db
    .prepare(
      "SELECT s.label AS subject, c.predicate, o.label AS object, c.valid_until AS until FROM graph_claims c JOIN graph_entities s ON s.id = c.subject_id JOIN graph_entities o ON o.id = c.object_id WHERE c.predicate != 'mentioned_with' ORDER BY c.id",
    )
    .all() as Array<{ subject: string; predicate: string; object: string; until: string | null }>;

describe('the writer in a workspace', () => {
  it('types a domain the writer calls their personal site as a project, and a domain only named as a host', async () => {
    const db = await workspaces.indexed({
      'USER.md': '# USER\n\n- Name: Ada Quinn\n',
      'MEMORY.md': '# MEMORY\n\n- ada.dev: personal site, Hugo.\n',
      'memory/2026-01-10.md': '# 2026-01-10\n\n- ada.dev: Hugo bump broke a shortcode.\n- backup.example.com: nightly job failed.\n',
      'memory/2026-01-11.md': '# 2026-01-11\n\n- ada.dev: redeployed.\n- backup.example.com: fixed.\n',
      'memory/2026-01-12.md': '# 2026-01-12\n\n- ada.dev: new post.\n',
    });
    const typeOf = (label: string) => db.prepare('SELECT type FROM graph_entities WHERE label = ?').pluck().get(label);
    expect(typeOf('ada.dev')).toBe('project');
    expect(typeOf('backup.example.com')).toBe('machine');
    expect(relationRows(db)).toContainEqual({ subject: 'Ada Quinn', predicate: 'owns', object: 'ada.dev', until: null });
  });

  it('keeps a place and the larger place it lies in both current, and names the writer from a 1:1 with their manager', async () => {
    const db = await workspaces.indexed({
      'MEMORY.md': '# MEMORY\n\n- Manager: Priya Natarajan. Notes in the shared doc "Dana / Priya 1:1".\n- Live in Kilimani, Nairobi.\n',
    });
    const rows = relationRows(db);
    expect(rows).toContainEqual({ subject: 'Dana', predicate: 'located_in', object: 'Kilimani', until: null });
    expect(rows).toContainEqual({ subject: 'Dana', predicate: 'located_in', object: 'Nairobi', until: null });
  });


  it('gives first-person lines to the person USER.md names, closes the earlier place, and re-extracts when the name changes', async () => {
    const db = await workspaces.indexed({
      'USER.md': '# USER\n\n- Name: Ada Quinn\n',
      'memory/2026-01-10.md': '# 2026-01-10\n\n- I live in Porto.\n',
      'memory/2026-06-02.md': '# 2026-06-02\n\n- Moved to Lisbon last week.\n',
    });
    const rows = relationRows(db);
    expect(rows).toContainEqual({ subject: 'Ada Quinn', predicate: 'located_in', object: 'Porto', until: '2026-06-02' });
    expect(rows).toContainEqual({ subject: 'Ada Quinn', predicate: 'moved_to', object: 'Lisbon', until: null });

    workspaces.workspace().write('USER.md', '# USER\n\n- Name: Ada Brandt\n');
    await workspaces.service().invoke('index.sync', {});
    const renamed = relationRows(db);
    expect(renamed).toContainEqual({ subject: 'Ada Brandt', predicate: 'located_in', object: 'Porto', until: '2026-06-02' });
    expect(renamed.map((r) => r.subject)).toContain('Ada Brandt');
    expect(renamed.map((r) => r.subject)).not.toContain('Ada Quinn');
  });
});
