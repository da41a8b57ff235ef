import type { EntityType, GraphClaim, GraphEntity, GraphEvidence, GraphSlice } from '../../core/src/contract/index.js';

export const evidence = (path = 'MEMORY.md', startLine = 3, endLine = startLine): GraphEvidence => ({
  path,
  startLine,
  endLine,
  chunkId: 'chunk:1',
  dreamRun: null,
  origin: 'owner',
  byModel: false,
});

export const entity = (id: string, over: Partial<GraphEntity> = {}): GraphEntity => ({
  id,
  type: 'person',
  label: id.replace(/^entity:/, 'E'),
  aliases: [],
  degree: 1,
  sources: ['workspace'],
  origin: 'owner',
  evidence: [evidence()],
  ...over,
});

export const claim = (id: string, subject: string, object: string | null, over: Partial<GraphClaim> = {}): GraphClaim => ({
  id,
  subject,
  predicate: 'mentioned_with',
  object,
  literal: object === null ? 'value' : null,
  confidence: 0.9,
  origin: 'owner',
  validFrom: '2026-03-02',
  validUntil: null,
  weight: 1,
  evidence: [evidence('memory/2026-03-02.md', 3)],
  ...over,
});

export const slice = (entities: GraphEntity[], edges: GraphClaim[], over: Partial<GraphSlice> = {}): GraphSlice => ({
  entities,
  edges,
  omitted: { entities: 0, edges: 0 },
  totals: { entities: entities.length, claims: edges.length },
  evidence: 'included',
  ...over,
});

const TYPES: EntityType[] = ['person', 'project', 'organization', 'place', 'machine', 'tool', 'concept', 'tag'];

/** A deterministic synthetic graph of `nodes` entities and `edges` relations, in clusters. */
export function syntheticSlice(nodes: number, edges: number): GraphSlice {
  let seed = 42;
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const entities = Array.from({ length: nodes }, (_, i) => entity(`entity:${i + 1}`, { type: TYPES[i % TYPES.length]!, label: `Entity ${i + 1}`, degree: 0 }));
  const claims: GraphClaim[] = [];
  const cluster = 50;
  for (let i = 0; i < edges; i++) {
    const a = Math.floor(random() * nodes);
    const local = random() < 0.9;
    let b = local ? Math.floor(a / cluster) * cluster + Math.floor(random() * cluster) : Math.floor(random() * nodes);
    if (b >= nodes) b = nodes - 1;
    claims.push(claim(`claim:${i + 1}`, `entity:${a + 1}`, `entity:${b + 1}`));
    entities[a]!.degree++;
    entities[b]!.degree++;
  }
  return slice(entities, claims);
}
