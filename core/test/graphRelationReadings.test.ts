import { describe, expect, it } from 'vitest';
import { extractFile } from '../src/graph/extractFile.js';

/** The typed relations one note yields, as "subject predicate object" lines. */
function relationsOf(text: string, notePath = 'memory/2026-10-01.md'): string[] {
  return extractFile(notePath, text, '2026-10-01', { writerName: null }).flatMap((e) =>
    e.claims.filter((c) => c.object !== null).map((c) => `${e.entities[c.subject]!.label} ${c.predicate} ${e.entities[c.object!]!.label}`),
  );
}

describe('relations in natural sentences', () => {
  it('gives a verb continuing a clause the clause’s subject, and nothing when a sentence ends between them', () => {
    expect(relationsOf('- Kestrel is hosted on Heroku; moved to fly.io on Oct 9.')).toEqual(['Kestrel runs_on Heroku', 'Kestrel moved_to fly.io']);
    expect(relationsOf('- Kestrel runs on Heroku, moved to kube-east later.')).toEqual(['Kestrel runs_on Heroku', 'Kestrel moved_to kube-east']);
    expect(relationsOf('- Sam owns ledgerd and leads the Ledger team.')).toEqual(['Sam owns ledgerd', 'Sam leads Ledger team']);
    expect(relationsOf('- Kestrel runs on Heroku. Moved to kube-east later.')).toEqual(['Kestrel runs_on Heroku']);
  });

  it('reads appositions: "X, who owns Y", "Org, based in Place", "Org (Place)"', () => {
    expect(relationsOf('- Dana Okafor, who owns payments-gateway, is out.')).toEqual(['Dana Okafor owns payments-gateway']);
    expect(relationsOf('- Quillfin, based in Berlin, pays well.')).toEqual(['Quillfin located_in Berlin']);
    expect(relationsOf('- Backend engineer at Quillfin (Berlin, payments infra).')).toEqual(['Quillfin located_in Berlin']);
    // A parenthesis that names no place says nothing.
    expect(relationsOf('- Lunch at Quillfin (the usual).')).toEqual([]);
  });

  it('makes the receiver of a handover the owner, and reads a lowercase host’s list of services', () => {
    expect(relationsOf('- Dana handed the staging box over to Marco Bellini today.')).toEqual(['Marco Bellini owns staging box']);
    expect(relationsOf('- Handed over the on-call rota to Grace.')).toEqual(['Grace owns on-call rota']);
    expect(relationsOf('- Handed the laptop back to them.')).toEqual([]);
    expect(relationsOf('- atlas services: Forgejo, Miniflux.')).toEqual(['Forgejo runs_on atlas', 'Miniflux runs_on atlas']);
  });

  it('reads every section of a person’s note as about them, and never a time word as part of a name', () => {
    expect(relationsOf('# Sam Reyes\n\n## Work with him\n- Owns idempotency keys v2 (PR #1279).', 'memory/people/sam.md')).toEqual(['Sam Reyes owns idempotency keys v2']);
    expect(relationsOf('- ledgerd moved to db-02 yesterday.')).toEqual(['ledgerd moved_to db-02']);
    expect(relationsOf('Saturday night Jellyfin moved from kifaru to twiga.')).toEqual(['Jellyfin moved_to twiga']);
  });
});

describe('relations in terse described lines', () => {
  it('reads a section headed by a person’s full name in a people note as about them', () => {
    const note = '# Team\n\n### Hope Wanjiku\n- joined Pesaflow 2023 from a telco NOC.\n- volunteers at Msingi Code School too\n';
    expect(relationsOf(note, 'memory/people/team.md')).toEqual(['Hope Wanjiku member_of Pesaflow', 'Hope Wanjiku member_of Msingi Code School']);
    // The same lines in a journal note have no one to be about.
    expect(relationsOf(note, 'memory/2026-10-01.md')).toEqual([]);
  });

  it('goes on past a full stop followed by lowercase, and after "=", but takes no word ending a sentence as a subject', () => {
    expect(relationsOf('- Karim: partner. works at Mawingu Labs in Lavington')).toEqual(['Karim member_of Mawingu Labs']);
    expect(relationsOf('- Priyanka Shah = finance ops, owns the settlement reports')).toEqual(['Priyanka Shah owns settlement reports']);
    expect(relationsOf('- Karim: partner. Works at Mawingu Labs in Lavington')).toEqual([]);
  });
});
