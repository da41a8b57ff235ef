import { parseArgs } from 'node:util';
import { exitCodeFor, ReverieError } from '../platform/errors.js';
import { createContext, type CliOptions } from './context.js';
import { configCommand } from './commands/config.js';
import { modelsCommand } from './commands/models.js';
import { whyCommand } from './commands/why.js';
import { forgetCommand } from './commands/forget.js';
import { sessionsCommand } from './commands/sessions.js';
import { importCommand } from './commands/import.js';
import { dreamCommand } from './commands/dream.js';
import { daemonCommand } from './commands/daemon.js';
import { agentsCommand } from './commands/agents.js';
import { mcpCommand } from './commands/mcp.js';
import { indexCommand } from './commands/index.js';
import { searchCommand } from './commands/search.js';
import { serveCommand } from './commands/serve.js';
import { statusCommand } from './commands/status.js';
import { graphCommand } from './commands/graph.js';
import { logsCommand } from './commands/logs.js';
import type { CliContext } from './context.js';

const USAGE = `Usage: reverie <command> [options]

Commands:
  status [--json]                          workspace, index state and per-file coverage
  index [--force] [--json]                 bring the index up to date with your Markdown
  search <query> [--json] [--limit N] [--source memory|dreams] [--graph]
  graph search <text> | neighbors <entity> [--hops N] | explain <claimId> | overview [--limit N] [--json]   the knowledge graph
  config get [key] | config set <key> <value>
  serve [--port P] [--open] [--demo] [--json]   the UI in your browser, on 127.0.0.1
  sessions ingest [--codex DIR] [--claude DIR] [--openclaw DIR] [--json]   agent transcripts (remembered)
  import detect|plan|apply [--source codex|claude-code|hermes] [--from HOME] [--plan FILE] [--replace] [--json]
  why <path:line | path:start-end | chunk:N> [--json]   where a memory came from
  forget --session <id> | --path <path> [--dry-run] [--json]
  models list | pull <hf:…|https://…|path> [--role embedding|chat] | add <path> | use <model> | remove <model>
  dream [--dry-run] [--backfill PATH] [--rollback RUN] [--min-score X] [--min-recall-count N] [--min-unique-queries N] [--json]
  dream runs [--json] | dream show <runId> | dream review <runId> <candidateKey> approve|reject
  daemon [--json]                          a headless host: watcher, dreaming schedule, agent socket
  agents add <name> [--write] | agents list | agents revoke <name> | agents log [name]   tokens for local agents
  mcp [--token T]                          MCP server on stdio for one agent (token also from env REVERIE_AGENT_TOKEN)
  logs [--follow] [--level debug|info|warn|error] [--limit N] [--json]   the engine log (last N records; --follow: new ones until Ctrl-C, JSON lines with --json)

Global options:
  --workspace DIR   workspace folder (env REVERIE_WORKSPACE; default: the one chosen at first run)
  --data-dir DIR    app data folder (env REVERIE_DATA_DIR; default: ~/.config/Reverie on Linux)
  --json            print exactly one JSON value on stdout
`;

const COMMANDS: Record<string, (ctx: CliContext) => Promise<number>> = {
  status: statusCommand,
  index: indexCommand,
  search: searchCommand,
  config: configCommand,
  serve: serveCommand,
  models: modelsCommand,
  why: whyCommand,
  forget: forgetCommand,
  sessions: sessionsCommand,
  import: importCommand,
  dream: dreamCommand,
  daemon: daemonCommand,
  agents: agentsCommand,
  mcp: mcpCommand,
  graph: graphCommand,
  logs: logsCommand,
};

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        workspace: { type: 'string' },
        'data-dir': { type: 'string' },
        json: { type: 'boolean', default: false },
        limit: { type: 'string' },
        source: { type: 'string', multiple: true },
        force: { type: 'boolean', default: false },
        port: { type: 'string' },
        open: { type: 'boolean', default: false },
        demo: { type: 'boolean', default: false },
        role: { type: 'string' },
        session: { type: 'string' },
        path: { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        codex: { type: 'string' },
        claude: { type: 'string' },
        openclaw: { type: 'string' },
        from: { type: 'string' },
        plan: { type: 'string' },
        replace: { type: 'boolean', default: false },
        backfill: { type: 'string' },
        write: { type: 'boolean', default: false },
        token: { type: 'string' },
        rollback: { type: 'string' },
        'min-score': { type: 'string' },
        'min-recall-count': { type: 'string' },
        'min-unique-queries': { type: 'string' },
        graph: { type: 'boolean', default: false },
        hops: { type: 'string' },
        level: { type: 'string' },
        follow: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
    return 1;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || command === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const run = command ? COMMANDS[command] : undefined;
  if (!run) {
    process.stderr.write(`${command ? `Unknown command "${command}".` : 'No command given.'}\n\n${USAGE}`);
    return 1;
  }
  const options: CliOptions = {
    workspace: values.workspace,
    dataDir: values['data-dir'],
    json: values.json,
    limit: values.limit,
    source: values.source,
    force: values.force,
    port: values.port,
    open: values.open,
    demo: values.demo,
    role: values.role,
    session: values.session,
    path: values.path,
    dryRun: values['dry-run'],
    codex: values.codex,
    claude: values.claude,
    openclaw: values.openclaw,
    from: values.from,
    plan: values.plan,
    replace: values.replace,
    backfill: values.backfill,
    write: values.write,
    token: values.token,
    rollback: values.rollback,
    minScore: values['min-score'],
    minRecallCount: values['min-recall-count'],
    minUniqueQueries: values['min-unique-queries'],
    graph: values.graph,
    hops: values.hops,
    level: values.level,
    follow: values.follow,
  };
  try {
    return await run(createContext(options, rest));
  } catch (error) {
    const code = exitCodeFor(error);
    const message = error instanceof ReverieError ? error.message : `Internal error: ${(error as Error)?.stack ?? String(error)}`;
    process.stderr.write(`reverie ${command}: ${message}\n`);
    return code;
  }
}
