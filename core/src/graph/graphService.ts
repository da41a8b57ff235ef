import type Database from 'better-sqlite3';
import type { GraphAliases, GraphEntity, GraphFilters, GraphSettings } from '../contract/index.js';
import { ALIAS_FILE } from './aliases/aliasBook.js';
import type { OperationHandlers } from '../contract/index.js';
import type { ModelStore } from '../models/modelStore.js';
import { addMerge, addSplit, aliasState, readAliasFile, type AliasFileRead } from './aliases/aliasFile.js';
import { explainClaim, neighbors, overview, searchEntities } from './graphQueries.js';
import { updateGraph, type GraphUpdateReport } from './graphUpdate.js';
import { readWriterName } from './noteWriter.js';
import type { ModelExtractionSetting } from './modelExtractionPass.js';

export interface GraphServiceOptions {
  /** The index database (reopened after corruption, hence a getter). */
  indexDb: () => Database.Database;
  workspaceRoot: string;
  /** Where `graph.modelExtraction` is read at each update (unset: the rules alone). */
  settings?: { read(): { graph: GraphSettings } };
  /** The installed models: the active chat model does the extraction. */
  models?: Pick<ModelStore, 'activeModel'>;
  /** After a merge or split is written: a sync brings the graph up to date with the alias file. */
  onDidWriteAliases?: (paths: string[]) => void;
}

/** The index's record of the alias file the graph was last built with (a change re-extracts every file). */
const ALIASES_META = 'graph_aliases_sha256';
/** The index's record of the rules and the writer's name the graph was extracted with (a change re-extracts every file). */
const EXTRACTION_META = 'graph_extraction';
/** Bump when the extraction rules change what they find, so existing indexes re-derive their graph. */
export const GRAPH_RULES_VERSION = 12; // 12: a section word ending a known name ("Cloud SQL"), kinship words alone are no names ("Mum"), a possessive with nothing after it is no place ("to Hope's —"); 11: pair work (pairedWork.ts), a move's earlier place or host (movedFrom.ts), ownership by a possessive (possessedBy.ts), a group's place and place appositions (placeGroups.ts, placeAppositions.ts), before/after tables (changeTables.ts), the machines the writer keeps (writerPossessions.ts), a first-person verb's coordinated objects (coordinatedObjects.ts), coordinated people with a plural verb (coordinatedSubjects.ts), a lowercase apposition between a subject and its verb; 10: day headings of any shape are no titles, links to dated notes are evidence, calendar-led objects are occasions, names keep their particles and titles ("Cais do Sodré", "Dr. Wekesa"), USER.md/MEMORY.md headings name the file, software on a host at a clause's opening (hostedOn.ts), people one lives with (sharedHomes.ts), a described person at an organisation or a role on a place, a host inside a provider (runs on GCP, in `hamia-prod`) and neither ends the other; 9: the writer from a 1:1 with their manager (noteWriter.ts), what they call their own (writerPossessions.ts), a role line's trailing team, "now/still on" a host (hostedNow.ts), the writer in a place's larger place, a domain's shape a weak vote, a bare release version a project, where a walk goes and a building's street are places (typeCues.ts), "in Lisbon (Graça)" places the subject in the part too; 8: lists after a verb, described parts, noun-phrase places, service/host tables, rosters, leads in parentheses (relations.ts, describedRelations.ts, placeRelations.ts, tableRelations.ts); 7: a first name joined to the one person of that name is split again by a second (graphWriter.ts unjoinShortName); 6: a short organisation name joins its one long name (shortOrganisationNames.ts); 5: a name's type from its votes in every file (workspaceTypes.ts); 3: types settled by votes across a file (typeVotes.ts) and names' head words; 4: what was rewritten or ported "in"/"to" is a language

type GraphHandlers = Pick<OperationHandlers, 'graph.search' | 'graph.neighbors' | 'graph.explain' | 'graph.overview' | 'graph.aliases' | 'graph.merge' | 'graph.split'>;

/**
 * The knowledge graph: kept up to date from the index after every sync, queried through the
 * contract's `graph.*` operations. Extraction is deterministic, then, when the setting is on,
 * the active chat model adds what it finds in the changed files (see modelExtractionPass.ts).
 */
export class GraphService {
  readonly handlers: GraphHandlers;
  /** What the last update did (files, counts, time); null before the first. */
  lastUpdate: GraphUpdateReport | null = null;

  constructor(private readonly options: GraphServiceOptions) {
    const db = () => options.indexDb();
    this.handlers = {
      'graph.search': async ({ text, limit, filters }) => ({ entities: searchEntities(db(), text, limit, filters) }),
      'graph.neighbors': async ({ entity, hops, limit, filters }) => neighbors(db(), entity, hops, limit, filters),
      'graph.explain': async ({ claimId }) => explainClaim(db(), options.workspaceRoot, claimId),
      'graph.overview': async ({ limit, filters, mentionedWith }) => overview(db(), limit, filters, mentionedWith),
      'graph.aliases': async () => aliasState(readAliasFile(options.workspaceRoot)),
      'graph.merge': async ({ names }) => this.aliasesWritten(addMerge(options.workspaceRoot, names)),
      'graph.split': async ({ name, from }) => this.aliasesWritten(addSplit(options.workspaceRoot, name, from)),
    };
  }

  /**
   * Re-extracts files whose hash changed since the last update (all of them with `force`). The
   * chat-model phase also stops when `modelYieldsTo` says something more urgent waits.
   */
  async update(force = false, shouldStop?: () => boolean, modelYieldsTo?: () => boolean): Promise<GraphUpdateReport> {
    const db = this.options.indexDb();
    const aliases = readAliasFile(this.options.workspaceRoot);
    const aliasesSha = aliases.sha256 ?? 'none';
    const builtWith = (db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(ALIASES_META) as string | undefined) ?? 'none';
    // Merges and splits are decided as entities are resolved: a changed alias file means extracting again.
    const aliasesChanged = builtWith !== aliasesSha;
    // First-person lines are the writer's: a new name in USER.md (or new rules) means extracting again.
    const writerName = readWriterName(this.options.workspaceRoot);
    const extraction = JSON.stringify([GRAPH_RULES_VERSION, writerName]);
    const extractionChanged = (db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(EXTRACTION_META) as string | undefined) !== extraction;
    const report = await updateGraph(db, { force: force || aliasesChanged || extractionChanged, shouldStop, model: this.modelSetting(), modelYieldsTo, aliases: aliases.book, extraction: { writerName } });
    const remember = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
    if (aliasesChanged && !shouldStop?.()) remember.run(ALIASES_META, aliasesSha);
    if (extractionChanged && !shouldStop?.()) remember.run(EXTRACTION_META, extraction);
    this.lastUpdate = report;
    return this.lastUpdate;
  }

  private aliasesWritten(read: AliasFileRead): GraphAliases {
    this.options.onDidWriteAliases?.([ALIAS_FILE]);
    return aliasState(read);
  }

  /** Read at every update: the person may switch the model extraction or the chat model at any time. */
  private modelSetting(): ModelExtractionSetting {
    const graph = this.options.settings?.read().graph;
    if (!graph?.modelExtraction) return { enabled: false };
    const chat = this.options.models?.activeModel('chat');
    return { enabled: true, model: chat?.present ? { path: chat.path, name: chat.file } : null, timeoutMs: graph.modelTimeoutSeconds * 1000 };
  }

  /** Entities a free-text search names, for `memory.search {graph: true}`. */
  entitiesFor(query: string, limit: number, filters?: GraphFilters): GraphEntity[] {
    return searchEntities(this.options.indexDb(), query.slice(0, 500), limit, filters);
  }

  close(): void {
    // Nothing is held open: the graph lives in the index database, closed by its owner.
  }
}
