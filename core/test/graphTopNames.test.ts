import { describe, expect, it } from 'vitest';
import { findMentions } from '../src/graph/mentions.js';

/** The labels and types findMentions gives `text`, in order. */
function mentions(text: string): string[] {
  return findMentions(text).map((m) => `${m.label}:${m.type}`);
}

describe('names that are not the first word alone, a kinship word or a place by ellipsis', () => {
  it('keeps a section word that ends a widely known name ("Cloud SQL"), not one after a name of the notes ("Quillmark API")', () => {
    expect(mentions('Brenda on Cloud SQL: yes, obviously Cloud SQL.')).toEqual(['Brenda:person', 'Cloud SQL:tool', 'Cloud SQL:tool']);
    expect(mentions("Cloud SQL's backups are stale.")).toEqual(['Cloud SQL:tool']);
    // Near miss: "Quillmark" is no known name, so "API" stays a generic word after it.
    expect(mentions('the Quillmark API timed out twice').map((m) => m.split(':')[0])).toEqual(['Quillmark']);
  });

  it('takes "Mum" or "Dad" alone as a relation to the writer, not a name; a named relative keeps the name', () => {
    expect(mentions('Mum says hi, Dad asked about the car.')).toEqual([]);
    expect(mentions('Called Mummy tonight.')).toEqual([]);
    // Near miss: "Auntie Odera" names someone.
    expect(mentions('Auntie Odera visited on sunday').map((m) => m.split(':')[0])).toEqual(['Auntie Odera']);
  });

  it('reads a possessive with nothing after it as someone\'s, not as where something went', () => {
    const owner = findMentions("the pager moved from Tobias's rota to Wairimu's — from monday").find((m) => m.label === 'Wairimu');
    expect(owner?.type).not.toBe('place');
    // Near miss: a possessive followed by what it owns, or a plain name after "went to", keeps the place cue.
    expect(findMentions("the pager moved from Tobias's rota to Wairimu's pitch").find((m) => m.label === 'Wairimu')?.type).toBe('place');
    expect(findMentions('after lunch we walked to Kirichwa.').find((m) => m.label === 'Kirichwa')?.type).toBe('place');
  });
});
