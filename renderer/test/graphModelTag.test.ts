import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { OperationOutput } from '../../core/src/contract/index.js';
import { createReverieStore, type ReverieStore } from '../src/store/store.js';
import { StoreContext } from '../src/store/useReverie.js';
import { GraphDetailCard } from '../src/views/graph/GraphDetailCard.js';
import { createFakeClient } from './fakeClient.js';
import { claim, entity, evidence, slice } from './graphFixtures.js';

const byModel = (path: string, line: number) => ({ ...evidence(path, line), byModel: true });

const ADA = entity('entity:1', { label: 'Ada Marlowe', evidence: [evidence('USER.md', 3), byModel('memory/2026-03-05.md', 2)] });
const PORTO = entity('entity:2', { type: 'place', label: 'Porto' });
const QUILL = entity('entity:3', { type: 'project', label: 'Quillfeather' });
const ZED = entity('entity:4', { type: 'tool', label: 'zed' });
/** Only the model stated it; the rules and the model both said the next; the last has lines beyond the 50 sent. */
const MODEL_ONLY = claim('claim:1', 'entity:1', 'entity:2', { predicate: 'lives_in', evidence: [byModel('memory/2026-03-05.md', 2)] });
const MIXED = claim('claim:2', 'entity:1', 'entity:3', { weight: 2, evidence: [evidence('MEMORY.md', 4), byModel('memory/2026-03-05.md', 2)] });
const PARTLY_SENT = claim('claim:3', 'entity:1', 'entity:4', { weight: 80, evidence: Array.from({ length: 50 }, (_, i) => byModel(`memory/2026-04-${String(i % 28 + 1).padStart(2, '0')}.md`, 3 + i)) });

async function cardFor(neighbors: OperationOutput<'graph.neighbors'>): Promise<string> {
  const store: ReverieStore = createReverieStore(createFakeClient({ 'graph.overview': async () => neighbors, 'graph.neighbors': async () => neighbors }), { confirm: () => true });
  await store.getState().graph.load();
  await store.getState().graph.select('entity:1');
  return renderToStaticMarkup(createElement(StoreContext.Provider, { value: { ...store, getInitialState: store.getState } }, createElement(GraphDetailCard)));
}

/** The markup of one claim's row (up to the next), by claim id. */
const claimRow = (html: string, id: string): string => html.split('<li class="graph-claim"').find((row) => row.includes(`data-claim-id="${id}"`)) ?? '';

describe('what the chat model extracted, in the graph card', () => {
  it('tags the model’s evidence lines, and a claim only when every line behind it is the model’s', async () => {
    const html = await cardFor({ ...slice([ADA, PORTO, QUILL, ZED], [MODEL_ONLY, MIXED, PARTLY_SENT]), center: ADA, facts: [] });
    // "Seen in": the rules' line untagged, the model's tagged.
    const seenIn = html.slice(html.indexOf('Seen in'), html.indexOf('Relations ('));
    expect(seenIn.match(/data-testid="graph-evidence-model"/g)).toHaveLength(1);
    expect(seenIn).toMatch(/memory\/2026-03-05\.md:2<\/button> <span class="badge graph-model-tag" data-testid="graph-evidence-model"[^>]*>extracted by the chat model<\/span>/);
    expect(seenIn).not.toMatch(/USER\.md:3<\/button> <span class="badge graph-model-tag"/);

    expect(claimRow(html, 'claim:1')).toContain('data-testid="graph-claim-model"');
    expect(claimRow(html, 'claim:2')).not.toContain('data-testid="graph-claim-model"');
    expect(claimRow(html, 'claim:2').match(/data-testid="graph-evidence-model"/g)).toHaveLength(1);
    // 80 lines, 50 sent and all the model's: the other 30 may be the rules', so the claim is not tagged.
    expect(claimRow(html, 'claim:3').match(/data-testid="graph-evidence-model"/g)).toHaveLength(5); // the lines shown
    expect(claimRow(html, 'claim:3')).not.toContain('data-testid="graph-claim-model"');
    expect(html.match(/data-testid="graph-claim-model"/g)).toHaveLength(1);
  });

  it('tags nothing in a graph the rules alone extracted', async () => {
    const rules = (c: typeof MIXED) => ({ ...c, evidence: c.evidence.map((e) => ({ ...e, byModel: false })) });
    const ada = { ...ADA, evidence: [evidence('USER.md', 3)] };
    const html = await cardFor({ ...slice([ada, PORTO, QUILL], [rules(MODEL_ONLY), rules(MIXED)]), center: ada, facts: [] });
    expect(html).toContain('data-testid="graph-claim"');
    expect(html).not.toContain('graph-model-tag');
  });
});
