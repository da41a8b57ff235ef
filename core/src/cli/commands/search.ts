import { operations, SourceKind, type OperationInput, type OperationOutput } from '../../contract/index.js';
import { ReadOnlySearch } from '../../engine/readOnlySearch.js';
import { IndexUnreadableError } from '../../index/indexService.js';
import { ReverieError } from '../../platform/errors.js';
import { defineCommand } from '../command.js';
import { commandWorkspace, openService, type CliContext } from '../context.js';
import { printJson } from '../output.js';
import { printEntities } from './graph.js';
import { printResults } from './searchOutput.js';

/** The contract's default, as the window uses it: notes and agent transcripts. */
const DEFAULT_SOURCES: readonly string[] = operations['memory.search'].input.parse({ query: '' }).sources;

export const searchCommand = defineCommand({
  name: 'search',
  summary: operations['memory.search'].summary,
  usage: ['search <query> [--json] [--limit N] [--budget CHARS] [--source memory|dreams|sessions] [--graph]'],
  flags: {
    limit: { type: 'number', integer: true, min: 1, max: 100, default: 10, description: 'how many results' },
    budget: { type: 'number', integer: true, min: 1, max: 100_000, description: 'characters the snippets may use together: best lines of each result, packed in rank order' },
    source: { type: 'multiple', value: 'KIND', description: `where to search: ${SourceKind.options.join(', ')}; default ${DEFAULT_SOURCES.join(' and ')}` },
    graph: { type: 'boolean', description: 'also list the knowledge-graph entities that match' },
  },
  async run(ctx, flags) {
    const query = ctx.positionals.join(' ').trim();
    if (!query) throw new ReverieError('invalid-input', `Nothing to search for. ${ctx.usage}`);
    const sources = (flags.source.length > 0 ? flags.source : DEFAULT_SOURCES).map((s) => {
      const kind = SourceKind.safeParse(s);
      if (!kind.success) throw new ReverieError('invalid-input', `--source "${s}" is not a source; use ${SourceKind.options.join(' or ')}.`);
      return kind.data;
    });

    const withGraph = flags.graph;
    const input = { query, limit: flags.limit, sources, graph: withGraph, ...(flags.budget === undefined ? {} : { budget: flags.budget }) };
    const { results, graph } = await searchAsIs(ctx, input) ?? await searchCaughtUp(ctx, input);
    // Plain --json keeps its shape (an array); with --graph the entities come beside the results.
    if (ctx.json) printJson(withGraph ? { results, graph: graph ?? [] } : results);
    else {
      printResults(results);
      if (withGraph) {
        process.stdout.write('\nGraph\n');
        printEntities(graph ?? []);
      }
    }
    return 0;
  },
});

type SearchInput = OperationInput<'memory.search'>;

/**
 * The index searched as it is, read-only, by the search alone (engine/readOnlySearch.ts). A host
 * keeps it current (this runs beside one when the thin path fell back), and without one
 * `reverie index` or the next host does: opening it to write and a sync's walk of every file cost
 * more than the search (issue 24). Null when it cannot be read so (none yet, another schema
 * version, damaged, a first sync cut short), and with --graph, whose entities are derived after
 * search-ready: the caller then catches up first.
 */
async function searchAsIs(ctx: CliContext, input: SearchInput): Promise<OperationOutput<'memory.search'> | null> {
  if (input.graph) return null;
  const workspace = await commandWorkspace(ctx);
  let search: ReadOnlySearch;
  try {
    search = new ReadOnlySearch({ dataDir: ctx.dataDir, workspace });
  } catch (error) {
    if (error instanceof IndexUnreadableError) return null;
    throw error;
  }
  try {
    return await search.invoke(input);
  } catch (error) {
    if (error instanceof IndexUnreadableError) return null; // damage met while reading: the usual open rebuilds it
    throw error;
  } finally {
    await search.close();
  }
}

/** The index opened the usual way (created, migrated or rebuilt as needed) and, without a host, caught up before the search. */
async function searchCaughtUp(ctx: CliContext, input: SearchInput): Promise<OperationOutput<'memory.search'>> {
  const service = await openService(ctx);
  try {
    // To search-ready, or with --graph through the graph too (its entities are derived after search-ready).
    if (!service.lock.readHolder()) await service.invoke('index.sync', { force: false, until: input.graph ? 'all' : 'search' });
    return await service.invoke('memory.search', input);
  } finally {
    await service.close();
  }
}
