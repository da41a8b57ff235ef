import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EntityLookups } from '../src/graph/entityLookups.js';
import { openIndexDatabase } from '../src/index/database.js';

describe("the graph writer's remembered name lookups", () => {
  it('after a retype answer as lookups that remembered nothing, and keep what other names remembered', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-lookups-'));
    const { db: d } = openIndexDatabase(path.join(dir, 'index.sqlite'), { reclaim: false, disableVectorExtension: true });
    const insert = d.prepare('INSERT INTO graph_entities (type, label, key) VALUES (?, ?, ?)');
    const quillfin = Number(insert.run('concept', 'Quillfin', 'quillfin').lastInsertRowid);
    const dana = Number(insert.run('concept', 'Dana Okafor', 'dana okafor').lastInsertRowid);
    const porto = Number(insert.run('place', 'Porto', 'porto').lastInsertRowid);
    const lookups = new EntityLookups(d, () => true);
    const ask = (l: EntityLookups) => ({
      quillfinOrg: l.byTypeKey('organization', 'quillfin'),
      quillfinOther: l.namedOtherType('quillfin'),
      quillfinConcept: l.rulesConceptByKey('quillfin'),
      dana: l.byFirstName('dana'),
      porto: l.byTypeKey('place', 'porto'),
    });
    expect(ask(lookups)).toEqual({ quillfinOrg: undefined, quillfinOther: undefined, quillfinConcept: quillfin, dana: null, porto });
    d.prepare("UPDATE graph_entities SET type = 'organization' WHERE id = ?").run(quillfin);
    lookups.retyped('quillfin');
    d.prepare("UPDATE graph_entities SET type = 'person' WHERE id = ?").run(dana);
    lookups.retyped('dana okafor');
    const fresh = new EntityLookups(d, () => true);
    expect(ask(lookups)).toEqual(ask(fresh));
    expect(ask(lookups)).toMatchObject({ quillfinOrg: quillfin, quillfinOther: quillfin, quillfinConcept: undefined, dana });
    d.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
