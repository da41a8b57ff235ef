import { agentTool, SourceTool, toolLabel, WORKSPACE_SOURCE, type EntityType, type GraphEntity, type OriginClass } from '../../../../core/src/contract/index.js';

/** Fill colour by entity type (also the legend). */
export const TYPE_COLORS: Record<EntityType, string> = {
  person: '#e07a5f',
  project: '#3d5a80',
  organization: '#81b29a',
  place: '#f2cc8f',
  machine: '#6d597a',
  tool: '#2a9d8f',
  concept: '#b56576',
  tag: '#9c89b8',
  url: '#4ea8de',
  path: '#8d99ae',
  identifier: '#a3a380',
};

export const TYPE_LABELS: Record<EntityType, string> = {
  person: 'Person',
  project: 'Project',
  organization: 'Organization',
  place: 'Place',
  machine: 'Machine',
  tool: 'Tool',
  concept: 'Concept',
  tag: 'Tag',
  url: 'URL',
  path: 'Path',
  identifier: 'Identifier',
};

/** Ring colour by the source tool of an entity's evidence. */
export const SOURCE_COLORS: Record<SourceTool, string> = Object.fromEntries(
  SourceTool.options.map((source) => [source, source === WORKSPACE_SOURCE ? '#ffffff' : (agentTool(source)?.ringColor ?? '#999999')]),
);

export const SOURCE_LABELS: Record<SourceTool, string> = Object.fromEntries(
  SourceTool.options.map((source) => [source, source === WORKSPACE_SOURCE ? 'Workspace notes' : toolLabel(source)]),
);

/** Untrusted entities get this ring whatever their source. */
export const UNTRUSTED_RING = '#dc2626';
export const EDGE_COLOR = '#b8bfca';
export const UNTRUSTED_EDGE_COLOR = '#f2a0a0';

export function typeColor(type: EntityType): string {
  return TYPE_COLORS[type] ?? '#999999';
}

/** An imported tool wins over the workspace (the ring says where else it came from); untrusted wins over all. */
export function ringColorOf(entity: Pick<GraphEntity, 'sources' | 'origin'>): string {
  if (entity.origin === 'untrusted') return UNTRUSTED_RING;
  const tool = entity.sources.find((s) => s !== 'workspace') ?? entity.sources[0] ?? 'workspace';
  return SOURCE_COLORS[tool] ?? SOURCE_COLORS[WORKSPACE_SOURCE]!;
}

export const ORIGIN_LABELS: Record<OriginClass, string> = {
  owner: 'Owner',
  agent: 'Agent',
  untrusted: 'Untrusted',
  system: 'System',
};
