import { describe, expect, it } from 'vitest';
import { extractFile } from '../src/graph/extractFile.js';

/** Every entity label one note yields (any type), but for lone sentence-initial words the writer keeps only when named elsewhere. */
function labelsOf(text: string, notePath = 'memory/2026-10-01.md', writerName: string | null = null): string[] {
  return [...new Set(extractFile(notePath, text, '2026-10-01', { writerName }).flatMap((e) => e.entities.filter((m) => m.certainty !== 'tentative').map((m) => m.label)))];
}

function relationsOf(text: string, notePath = 'memory/2026-10-01.md', writerName: string | null = null): string[] {
  return extractFile(notePath, text, '2026-10-01', { writerName }).flatMap((e) =>
    e.claims.map((c) => `${e.entities[c.subject]!.label} ${c.predicate} ${c.object === null ? JSON.stringify(c.literal) : e.entities[c.object]!.label}`),
  );
}

describe('graph furniture: dates, weekdays and dated notes are never entities', () => {
  it('reads a day heading as a day, whatever its shape, so "Key: value" lines under it are no facts of it', () => {
    for (const title of ['Tue 8 Sep', 'Monday, 28 September', 'Thursday 1 Oct', '2026-09-08']) {
      const text = `# ${title}\n\n- standup: nothing new\n- Lunch with Dana Okafor.\n`;
      expect(labelsOf(text, 'memory/2026-09-08.md')).not.toContain(title);
      expect(relationsOf(text, 'memory/2026-09-08.md')).toEqual([]);
    }
    // A title that names a thing still does.
    expect(relationsOf('# Kestrel\n\nowner: Dana\n', 'memory/kestrel.md')).toEqual(['Kestrel owner "Dana"']);
  });

  it('takes a link to a dated note for evidence, not a thing, and keeps links to named notes', () => {
    const labels = labelsOf('- Runbook in [[2026-11-03-postgres-upgrade]], see [[2026-11-04]] and [[2026-11-04#Decision|the decision]]; owner is [[Kestrel]].');
    expect(labels).toEqual(['Kestrel']);
  });

  it('reads a phrase opening with a calendar word as an occasion, never a relation’s object', () => {
    expect(relationsOf('- Msingi 2 cohort: Hope leads the Saturday sessions at the hub.')).toEqual([]);
    expect(labelsOf('- Hope leads the Saturday sessions at the hub.')).not.toContain('Saturday sessions');
    // A plain object that is no calendar phrase is still read.
    expect(relationsOf('- Hope leads the tax module.')).toEqual(['Hope leads tax module']);
  });

  it('keeps a name’s particle inside the name ("Cais do Sodré", "Miradouro da Senhora do Monte") but not between two names', () => {
    expect(labelsOf('- Walked from Cais do Sodré to Miradouro da Senhora do Monte at night.')).toEqual(['Cais do Sodré', 'Miradouro da Senhora do Monte']);
    expect(labelsOf('- Stayed at Casa do Largo in Alfama.')).toEqual(['Casa do Largo', 'Alfama']);
    // A particle must stand between two capitalised words: "Dana do" or "do Kestrel" alone is no name.
    expect(labelsOf('- Kestrel: what do Dana and Sam do here?')).toEqual(expect.not.arrayContaining(['Dana and Sam', 'Sam do']));
  });

  it('never makes the heading of USER.md or MEMORY.md a thing once USER.md names the writer, nor a generic hardware acronym', () => {
    for (const [file, title] of [['USER.md', 'USER'], ['MEMORY.md', 'Memory']]) {
      const text = `# ${title}\n\n- Manager: Grant Oduya\n- self-host a NAS and a NUC at home\n`;
      expect(labelsOf(text, file, 'Zawadi Njoroge')).toEqual(['Grant Oduya', 'Zawadi Njoroge']);
      // Its "Key: value" lines are the writer's.
      expect(relationsOf(text, file, 'Zawadi Njoroge')).toEqual(['Zawadi Njoroge manager "Grant Oduya"']);
    }
    // Another note's title still names its subject.
    expect(relationsOf('# Kestrel\n\nowner: Dana\n', 'memory/kestrel.md', 'Zawadi Njoroge')).toEqual(['Kestrel owner "Dana"']);
  });
});
