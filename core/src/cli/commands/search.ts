import { operations, SourceKind } from '../../contract/index.js';
import { ReverieError } from '../../platform/errors.js';
import { defineCommand } from '../command.js';
import { openService } from '../context.js';
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

    const service = await openService(ctx);
    try {
      const withGraph = flags.graph;
      // Without a host keeping the index fresh, catch up first (a no-op sync is cheap): to search-ready, or with
      // --graph through the graph too (its entities are derived after search-ready).
      if (!service.lock.readHolder()) await service.invoke('index.sync', { force: false, until: withGraph ? 'all' : 'search' });
      const { results, graph } = await service.invoke('memory.search', { query, limit: flags.limit, sources, graph: withGraph, ...(flags.budget === undefined ? {} : { budget: flags.budget }) });
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
    } finally {
      await service.close();
    }
  },
});
