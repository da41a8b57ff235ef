import { SourceKind, type SearchResult } from '../../contract/index.js';
import { ReverieError } from '../../platform/errors.js';
import { openService, type CliContext } from '../context.js';
import { printJson } from '../output.js';
import { printEntities } from './graph.js';

export async function searchCommand(ctx: CliContext): Promise<number> {
  const query = ctx.positionals.join(' ').trim();
  if (!query) throw new ReverieError('invalid-input', 'Nothing to search for. Usage: reverie search <query> [--json] [--limit N] [--source memory|dreams] [--graph]');
  const limit = ctx.options.limit === undefined ? 10 : Number(ctx.options.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new ReverieError('invalid-input', `--limit must be a whole number from 1 to 100 (got "${ctx.options.limit}").`);
  const sources = (ctx.options.source ?? ['memory'])
    .flatMap((s) => s.split(','))
    .map((s) => {
      const kind = SourceKind.safeParse(s.trim());
      if (!kind.success) throw new ReverieError('invalid-input', `--source "${s.trim()}" is not a source; use ${SourceKind.options.join(' or ')}.`);
      return kind.data;
    });

  const service = await openService(ctx);
  try {
    // Without a host keeping the index fresh, catch up first (a no-op sync is cheap).
    if (!service.lock.readHolder()) await service.invoke('index.sync', { force: false });
    const withGraph = ctx.options.graph;
    const { results, graph } = await service.invoke('memory.search', { query, limit, sources, graph: withGraph });
    // Plain --json keeps its shape (an array); with --graph the entities come beside the results.
    if (ctx.options.json) printJson(withGraph ? { results, graph: graph ?? [] } : results);
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
}

function printResults(results: SearchResult[]): void {
  if (results.length === 0) {
    process.stdout.write('No results.\n');
    return;
  }
  for (const r of results) {
    process.stdout.write(`${r.path}:${r.startLine}-${r.endLine}  (score ${r.score.toFixed(2)}${r.source === 'memory' ? '' : `, ${r.source}`})\n`);
    process.stdout.write(r.snippet.split('\n').map((l) => `    ${l}`).join('\n') + '\n\n');
  }
}
